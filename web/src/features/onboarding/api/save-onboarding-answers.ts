import type { BillingPeriod } from '@reachflow/domain'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { type GoalId, goals } from '../goals'

const goalIds = goals.map((goal) => goal.id) as [GoalId, ...GoalId[]]

/** product.md §3 "Onboarding answers", stored in the user's metadata (the profile has no column for them). */
export const onboardingAnswersSchema = z.object({
  targetAudience: z.string().max(200),
  dailyMessageGoal: z.number().int().min(1).max(500),
  businessType: z.string().max(100),
  mainGoals: z.array(z.enum(goalIds)).min(1, 'Select at least one goal'),
  billingPeriod: z.enum(['monthly', 'yearly']),
  selectedPlan: z.enum(['starter', 'growth', 'bundle']),
  accountCount: z.number().int().min(2).max(50),
})

export type OnboardingAnswers = z.infer<typeof onboardingAnswersSchema> & { billingPeriod: BillingPeriod }

export const defaultOnboardingAnswers: OnboardingAnswers = {
  targetAudience: '',
  dailyMessageGoal: 50,
  businessType: '',
  mainGoals: [],
  billingPeriod: 'yearly',
  selectedPlan: 'starter',
  accountCount: 2,
}

/** Saves the answers; true when stored. A failure is logged and the wizard carries on. */
export async function saveOnboardingAnswers(answers: OnboardingAnswers): Promise<boolean> {
  const data = onboardingAnswersSchema.parse(answers)
  const { error } = await supabase.auth.updateUser({ data: { onboarding: data } })
  if (error) {
    console.error('Error saving onboarding answers', error)
    return false
  }
  return true
}

import { onboardingPlans } from '@/lib/plans'
import type { OnboardingAnswers } from './api/save-onboarding-answers'

/** The price the chosen card shows (per month, or the bundle's fixed price), sent with the checkout request. */
export function selectedPlanPrice(
  answers: Pick<OnboardingAnswers, 'billingPeriod' | 'accountCount' | 'selectedPlan'>,
) {
  const plan = onboardingPlans(answers.billingPeriod, answers.accountCount).find(
    (p) => p.id === answers.selectedPlan,
  )
  return plan?.price ?? 0
}

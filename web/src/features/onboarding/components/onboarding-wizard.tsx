import type { User } from '@supabase/supabase-js'
import { useEffect, useRef, useState } from 'react'
import { Logo } from '@/components/ui/logo'
import { planNames } from '@/lib/plans'
import { checkoutSource } from '@/lib/traffic-source'
import { setProfileFlag, type UserProfile } from '@/lib/user-profile'
import { createCheckoutSession, priceIdFor } from '../api/create-checkout-session'
import {
  defaultOnboardingAnswers,
  type OnboardingAnswers,
  saveOnboardingAnswers,
} from '../api/save-onboarding-answers'
import { GOALS_SAVED_MESSAGE_MS } from '../goals'
import { selectedPlanPrice } from '../selected-plan-price'
import { GoalsStep } from './goals-step'
import { PlanStep } from './plan-step'
import { StepIndicator, type StepInfo } from './step-indicator'
import { WelcomeStep } from './welcome-step'

const steps: StepInfo[] = [
  { title: 'Welcome', description: 'A two-minute setup before your first campaign.' },
  { title: 'Define Your Goal', description: 'What do you want Reachflow to achieve for you?' },
  { title: 'Choose Your Plan', description: 'Every plan starts with a 3-day free trial. Cancel anytime.' },
]

export const CHECKOUT_FAILED = 'Failed to start checkout. Please try again.'

interface OnboardingWizardProps {
  user: User
  profile: UserProfile | null
  /** Called once onboarding is marked complete, just before the browser leaves for checkout. */
  onCompleted: () => void
}

/** Full-screen wizard shown while the profile's onboarding_completed is false (product.md §2, §4). */
export function OnboardingWizard({ user, profile, onCompleted }: OnboardingWizardProps) {
  const [step, setStep] = useState(1)
  const [answers, setAnswers] = useState<OnboardingAnswers>(defaultOnboardingAnswers)
  const [goalsSaved, setGoalsSaved] = useState(false)
  const [starting, setStarting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const savedTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const fullName = profile?.full_name ?? (user.user_metadata?.full_name as string | undefined)

  useEffect(() => () => clearTimeout(savedTimer.current), [])
  // Moving between steps moves focus to the new step's title for keyboard and screen-reader users.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every step change on purpose
  useEffect(() => headingRef.current?.focus(), [step])

  const patch = (change: Partial<OnboardingAnswers>) => setAnswers((current) => ({ ...current, ...change }))

  const continueFromGoals = async () => {
    setStep(3)
    if (await saveOnboardingAnswers(answers)) {
      setGoalsSaved(true)
      clearTimeout(savedTimer.current)
      savedTimer.current = setTimeout(() => setGoalsSaved(false), GOALS_SAVED_MESSAGE_MS)
    }
  }

  const startTrial = async () => {
    setError(null)
    setStarting(true)
    await setProfileFlag(user.id, 'onboarding_completed', true)
    try {
      const plan = answers.selectedPlan
      const url = await createCheckoutSession({
        userId: user.id,
        priceId: priceIdFor(plan, answers.billingPeriod),
        planType: plan,
        billingPeriod: answers.billingPeriod,
        planName: planNames[plan],
        price: selectedPlanPrice(answers),
        accountCount: plan === 'growth' ? answers.accountCount : 1,
        source: checkoutSource(),
      })
      onCompleted()
      window.location.assign(url)
    } catch (checkoutError) {
      console.error('Checkout could not start', checkoutError)
      setError(CHECKOUT_FAILED)
      setStarting(false)
    }
  }

  const current = steps[step - 1] ?? steps[0]
  return (
    <div className="fixed inset-0 z-50 overflow-y-auto bg-gradient-to-b from-brand-50 via-white to-white">
      <div className="mx-auto flex min-h-full max-w-5xl flex-col px-4 py-6 sm:px-6 sm:py-10">
        <Logo href={null} className="self-center" />
        <div className="mt-8">
          <StepIndicator steps={steps} current={step} />
        </div>
        <main className="mt-8 rounded-3xl bg-white p-6 shadow-card ring-1 ring-slate-200 sm:p-10">
          <div className="mb-8 text-center">
            <p className="text-sm font-semibold text-brand-600">
              Step {step} of {steps.length}
            </p>
            <h1
              ref={headingRef}
              tabIndex={-1}
              className="mt-1 text-2xl font-bold text-slate-900 focus:outline-none"
            >
              {current?.title}
            </h1>
            <p className="mt-1 text-slate-600">{current?.description}</p>
          </div>
          {step === 1 && <WelcomeStep fullName={fullName} onNext={() => setStep(2)} />}
          {step === 2 && (
            <GoalsStep
              selected={answers.mainGoals}
              onChange={(mainGoals) => patch({ mainGoals })}
              onBack={() => setStep(1)}
              onContinue={continueFromGoals}
            />
          )}
          {step === 3 && (
            <PlanStep
              answers={answers}
              onChange={patch}
              goalsSaved={goalsSaved}
              starting={starting}
              error={error}
              onBack={() => setStep(2)}
              onStartTrial={startTrial}
            />
          )}
        </main>
      </div>
    </div>
  )
}

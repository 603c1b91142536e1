import { type BillingPeriod, GROWTH_MAX_ACCOUNTS } from '@reachflow/domain'
import { AlertCircle, CheckCircle2 } from 'lucide-react'
import { AccountSlider } from '@/components/ui/account-slider'
import { BillingPeriodToggle } from '@/components/ui/billing-period-toggle'
import { Button } from '@/components/ui/button'
import { links } from '@/config/links'
import { onboardingPlans } from '@/lib/plans'
import type { OnboardingAnswers } from '../api/save-onboarding-answers'
import { OnboardingPlanCard } from './onboarding-plan-card'

export const ONBOARDING_GROWTH_MIN = 2

interface PlanStepProps {
  answers: OnboardingAnswers
  onChange: (patch: Partial<OnboardingAnswers>) => void
  goalsSaved: boolean
  starting: boolean
  error: string | null
  onBack: () => void
  onStartTrial: () => void
}

export function PlanStep({
  answers,
  onChange,
  goalsSaved,
  starting,
  error,
  onBack,
  onStartTrial,
}: PlanStepProps) {
  const plans = onboardingPlans(answers.billingPeriod, answers.accountCount)
  return (
    <div>
      {goalsSaved && (
        <p
          role="status"
          className="mb-5 flex items-center gap-2 rounded-lg bg-emerald-50 px-4 py-2.5 text-sm font-medium text-emerald-800 ring-1 ring-emerald-200"
        >
          <CheckCircle2 className="size-4" aria-hidden="true" />
          Your goals have been saved
        </p>
      )}
      <div className="flex justify-center">
        <BillingPeriodToggle
          value={answers.billingPeriod}
          yearlyLabel="Yearly"
          onChange={(billingPeriod: BillingPeriod) => onChange({ billingPeriod })}
        />
      </div>
      <div className="mt-8 grid gap-5 md:grid-cols-3">
        {plans.map((plan) => (
          <OnboardingPlanCard
            key={plan.id}
            plan={plan}
            selected={answers.selectedPlan === plan.id}
            onSelect={() => onChange({ selectedPlan: plan.id as OnboardingAnswers['selectedPlan'] })}
          >
            {plan.id === 'growth' && (
              <div>
                <AccountSlider
                  min={ONBOARDING_GROWTH_MIN}
                  max={GROWTH_MAX_ACCOUNTS}
                  value={answers.accountCount}
                  onChange={(accountCount) => onChange({ accountCount, selectedPlan: 'growth' })}
                  label="Accounts"
                  marks={['2', '25', '50+']}
                />
                <a
                  href={links.booking}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="mt-2 block text-xs font-medium text-brand-700 hover:underline"
                >
                  Contact us for 51+ accounts
                </a>
              </div>
            )}
          </OnboardingPlanCard>
        ))}
      </div>
      {error && (
        <p
          role="alert"
          className="mt-6 flex items-center gap-2 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200"
        >
          <AlertCircle className="size-4 shrink-0" aria-hidden="true" />
          {error}
        </p>
      )}
      <div className="mt-8 flex flex-col-reverse justify-between gap-3 sm:flex-row sm:items-center">
        <Button variant="secondary" onClick={onBack} disabled={starting}>
          Back
        </Button>
        <Button size="lg" onClick={onStartTrial} loading={starting} loadingText="Starting Trial...">
          Start 3-Day Free Trial
        </Button>
      </div>
    </div>
  )
}

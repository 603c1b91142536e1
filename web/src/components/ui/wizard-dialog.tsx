import { AlertCircle, Check } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from '@/lib/cn'
import { Button } from './button'
import { Dialog } from './dialog'

export interface WizardStep {
  title: string
}

/** Numbered steps; done ones show a check mark. */
function StepList({ steps, current }: { steps: readonly WizardStep[]; current: number }) {
  return (
    <ol className="flex items-center gap-2" aria-label="Progress">
      {steps.map((step, index) => {
        const done = index < current
        const active = index === current
        return (
          <li
            key={step.title}
            className="flex min-w-0 flex-1 items-center gap-2"
            aria-current={active ? 'step' : undefined}
          >
            <span
              className={cn(
                'flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
                done && 'bg-brand-600 text-white',
                active && 'bg-brand-50 text-brand-700 ring-2 ring-brand-600',
                !done && !active && 'bg-slate-100 text-slate-500',
              )}
            >
              {done ? <Check className="size-4" aria-hidden="true" /> : index + 1}
            </span>
            <span
              className={cn(
                'hidden truncate text-xs font-medium sm:block',
                active ? 'text-slate-900' : 'text-slate-500',
              )}
            >
              {step.title}
            </span>
            {index < steps.length - 1 && <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />}
          </li>
        )
      })}
    </ol>
  )
}

/**
 * A multi-step modal (product.md §2 "Modals", §4 "Wizards"): forward only when the step's data is there,
 * back freely; the last step submits.
 */
export function WizardDialog({
  title,
  steps,
  step,
  canContinue,
  onBack,
  onNext,
  onSubmit,
  onClose,
  submitLabel,
  submittingLabel,
  submitting = false,
  error,
  blockedReason,
  nextLabel = 'Next',
  size = '2xl',
  children,
}: {
  title: string
  steps: readonly WizardStep[]
  step: number
  canContinue: boolean
  onBack: () => void
  onNext: () => void
  onSubmit: () => void
  onClose: () => void
  submitLabel: string
  submittingLabel: string
  submitting?: boolean
  error?: string | null
  /** Why Next (or the submit) is disabled, said beside it; omit when the step already shows it. */
  blockedReason?: string | null
  /** Next's label where it does more than go to the next step (e.g. leaves for a sign-in page). */
  nextLabel?: string
  size?: '2xl' | '4xl'
  children: ReactNode
}) {
  const last = step === steps.length - 1
  const reason = !canContinue && !submitting && blockedReason ? blockedReason : null
  return (
    <Dialog
      open
      onClose={submitting ? undefined : onClose}
      title={title}
      size={size}
      headerExtra={
        <span className="text-sm font-medium whitespace-nowrap text-slate-500">
          Step {step + 1} of {steps.length}
        </span>
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          if (!canContinue || submitting) return
          if (last) onSubmit()
          else onNext()
        }}
        className="space-y-6"
      >
        <StepList steps={steps} current={step} />
        <div>
          <h3 className="text-base font-semibold text-slate-900">{steps[step]?.title}</h3>
          <div className="mt-4 space-y-4">{children}</div>
        </div>
        {error && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200"
          >
            <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {error}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-center sm:justify-between">
          <Button variant="secondary" onClick={step === 0 ? onClose : onBack} disabled={submitting}>
            {step === 0 ? 'Cancel' : 'Back'}
          </Button>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:gap-4">
            {reason && (
              <p id="wizard-blocked-reason" className="text-sm text-slate-600 sm:text-right">
                {reason}
              </p>
            )}
            <Button
              type="submit"
              disabled={!canContinue}
              loading={submitting}
              loadingText={submittingLabel}
              aria-describedby={reason ? 'wizard-blocked-reason' : undefined}
            >
              {last ? submitLabel : nextLabel}
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  )
}

import { Check } from 'lucide-react'
import { cn } from '@/lib/cn'

export interface StepInfo {
  title: string
  description: string
}

/** Numbered circles; completed steps show a check mark (product.md §2 onboarding). */
export function StepIndicator({ steps, current }: { steps: StepInfo[]; current: number }) {
  return (
    <ol className="flex items-center justify-center gap-2 sm:gap-4" aria-label="Onboarding progress">
      {steps.map((step, index) => {
        const number = index + 1
        const done = number < current
        const active = number === current
        return (
          <li key={step.title} className="flex items-center gap-2 sm:gap-4">
            <span className="flex items-center gap-2">
              <span
                aria-current={active ? 'step' : undefined}
                className={cn(
                  'flex size-9 items-center justify-center rounded-full text-sm font-semibold transition-colors',
                  done && 'bg-brand-600 text-white',
                  active && 'bg-white text-brand-700 ring-2 ring-brand-600',
                  !done && !active && 'bg-slate-100 text-slate-500',
                )}
              >
                {done ? <Check className="size-5" aria-label={`Step ${number} completed`} /> : number}
              </span>
              <span
                className={cn(
                  'hidden text-sm font-medium sm:inline',
                  active ? 'text-slate-900' : 'text-slate-500',
                )}
              >
                {step.title}
              </span>
            </span>
            {number < steps.length && <span className="h-px w-8 bg-slate-200 sm:w-12" aria-hidden="true" />}
          </li>
        )
      })}
    </ol>
  )
}

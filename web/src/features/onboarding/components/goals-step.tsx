import { Check } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/cn'
import { type GoalId, goals } from '../goals'

interface GoalsStepProps {
  selected: GoalId[]
  onChange: (goals: GoalId[]) => void
  onBack: () => void
  onContinue: () => void
}

/** Multi-select of main goals; Continue waits for at least one (product.md §5). */
export function GoalsStep({ selected, onChange, onBack, onContinue }: GoalsStepProps) {
  const toggle = (id: GoalId) =>
    onChange(selected.includes(id) ? selected.filter((goal) => goal !== id) : [...selected, id])
  return (
    <div>
      <fieldset>
        <legend className="text-sm text-slate-600">
          Select all that apply - this does not affect campaign performance
        </legend>
        <div className="mt-5 grid gap-3 sm:grid-cols-2">
          {goals.map((goal) => {
            const checked = selected.includes(goal.id)
            return (
              <label
                key={goal.id}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-xl p-4 ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                  checked ? 'bg-brand-50 ring-brand-500' : 'bg-white ring-slate-200 hover:ring-slate-300',
                )}
              >
                <input
                  type="checkbox"
                  name="mainGoals"
                  value={goal.id}
                  checked={checked}
                  onChange={() => toggle(goal.id)}
                  className="sr-only"
                />
                <span
                  aria-hidden="true"
                  className={cn(
                    'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-md ring-1',
                    checked ? 'bg-brand-600 text-white ring-brand-600' : 'bg-white ring-slate-300',
                  )}
                >
                  {checked && <Check className="size-3.5" />}
                </span>
                <span>
                  <span className="block font-semibold text-slate-900">{goal.label}</span>
                  <span className="block text-sm text-slate-600">{goal.hint}</span>
                </span>
              </label>
            )
          })}
        </div>
      </fieldset>
      <div className="mt-8 flex justify-between gap-3">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button onClick={onContinue} disabled={selected.length === 0}>
          Continue
        </Button>
      </div>
    </div>
  )
}

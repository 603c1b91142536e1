// The confirmation a pack needs when its canary try skipped steps: each step named with why it
// checked nothing, so the operator publishes knowing exactly what went out unchecked.

import type { CanaryStepResult } from '@reachflow/domain'
import { CircleMinus } from 'lucide-react'

export function UncheckedSteps({ steps }: { steps: CanaryStepResult[] }) {
  return (
    <>
      <p>
        The canary try skipped {steps.length === 1 ? 'this step' : 'these steps'}, so the draft is not checked
        there:
      </p>
      <ul className="mt-3 space-y-2" aria-label="Not checked">
        {steps.map((step) => (
          <li key={step.step} className="flex items-start gap-2">
            <CircleMinus className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
            <span>
              <span className="font-medium text-slate-800">{step.label}</span>
              {step.message && <span className="block text-xs text-slate-500">{step.message}</span>}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-3">Runners use it within a minute; the publication records what was not checked.</p>
    </>
  )
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Sparkles } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { SandboxBadge } from '@/components/ai/ai-note'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Select, Textarea } from '@/components/ui/form-field'
import { type AiAvailable, aiStatusKey, type Drafts, draftMessages } from '@/lib/ai'
import { errorMessage } from '@/lib/api-client'

/** "Write with AI": asks for the campaign's goal and offer, then drafts openings and follow-ups. */
export function WriteWithAiDialog({
  open,
  onClose,
  platform,
  status,
  initialFollowUps,
  onDrafts,
}: {
  open: boolean
  onClose: () => void
  platform: 'twitter' | 'instagram'
  status: AiAvailable
  initialFollowUps: number
  onDrafts: (drafts: Drafts) => void
}) {
  const queryClient = useQueryClient()
  const [goal, setGoal] = useState('')
  const [offer, setOffer] = useState('')
  const [variants, setVariants] = useState(3)
  const [followUps, setFollowUps] = useState(initialFollowUps)
  const [touched, setTouched] = useState(false)
  const draft = useMutation({
    mutationFn: () =>
      draftMessages({ goal: goal.trim(), offer: offer.trim(), platform, variants, followUps }),
    onSuccess: (drafts) => {
      onDrafts(drafts)
      onClose()
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: aiStatusKey }),
  })
  const goalProblem = goal.trim().length < 3 ? 'Describe the goal in a few words' : null
  const offerProblem = offer.trim().length < 3 ? 'Describe the offer in a few words' : null
  const submit = (event: FormEvent) => {
    event.preventDefault()
    // the dialog is portalled out of the wizard's DOM but not out of its React tree
    event.stopPropagation()
    setTouched(true)
    if (!goalProblem && !offerProblem) draft.mutate()
  }
  const budget = status.budget
  return (
    <Dialog
      open={open}
      onClose={draft.isPending ? undefined : onClose}
      title="Write with AI"
      description="Drafts your opening messages and follow-ups. They replace what is in this step, and you can edit every word before saving."
      headerExtra={status.sandbox ? <SandboxBadge /> : undefined}
      size="lg"
    >
      <form className="space-y-4" onSubmit={submit} noValidate>
        <Field
          id="ai-goal"
          label="Campaign goal"
          hint="What should a reply lead to?"
          error={touched ? goalProblem : null}
        >
          <Textarea
            id="ai-goal"
            rows={2}
            maxLength={500}
            placeholder="Book a 15-minute intro call"
            value={goal}
            onChange={(e) => setGoal(e.target.value)}
            aria-invalid={touched && Boolean(goalProblem)}
          />
        </Field>
        <Field
          id="ai-offer"
          label="Your offer"
          hint="What you sell, and for whom"
          error={touched ? offerProblem : null}
        >
          <Textarea
            id="ai-offer"
            rows={2}
            maxLength={500}
            placeholder="Done-for-you SEO audits for early-stage SaaS"
            value={offer}
            onChange={(e) => setOffer(e.target.value)}
            aria-invalid={touched && Boolean(offerProblem)}
          />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field id="ai-variants" label="Opening variants">
            <Select id="ai-variants" value={variants} onChange={(e) => setVariants(Number(e.target.value))}>
              {[1, 2, 3].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="ai-follow-ups" label="Follow-ups">
            <Select
              id="ai-follow-ups"
              value={followUps}
              onChange={(e) => setFollowUps(Number(e.target.value))}
            >
              {[0, 1, 2, 3].map((n) => (
                <option key={n} value={n}>
                  {n === 0 ? 'None' : n}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        {draft.isError && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 ring-1 ring-red-200">
            Could not write drafts: {errorMessage(draft.error)} Your messages are unchanged.
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-xs text-slate-500">
            {budget
              ? `${Math.max(0, budget.requestLimit - budget.requests)} of ${budget.requestLimit} AI requests left today`
              : null}
          </p>
          <div className="flex gap-2 sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={draft.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              loading={draft.isPending}
              loadingText="Writing…"
              icon={<Sparkles className="size-4" aria-hidden="true" />}
            >
              Write drafts
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  )
}

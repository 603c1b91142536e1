import { Plus, Sparkles, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { type UseFormReturn, useFieldArray } from 'react-hook-form'
import { AiNote, SandboxBadge } from '@/components/ai/ai-note'
import { Button } from '@/components/ui/button'
import { CheckboxField, Field, Input, Textarea } from '@/components/ui/form-field'
import { type AiAvailable, type Drafts, useAiStatus } from '@/lib/ai'
import type { CampaignForm } from '../../campaign-form'
import { MessagePreview } from './message-preview'
import { WinnerRuleField } from './winner-rule-field'
import { WriteWithAiDialog } from './write-with-ai-dialog'

const MAX_MESSAGES = 10

/** product.md §5: at least one non-blank initial message; one field always stays; {username} and {name} personalise, {a|b} spins. */
export function MessagesStep({
  form,
  problems,
  platform = 'twitter',
}: {
  form: UseFormReturn<CampaignForm>
  problems: Record<string, string>
  platform?: 'twitter' | 'instagram'
}) {
  const { register, watch, control, formState } = form
  const messages = useFieldArray({ control, name: 'messages' })
  const followUps = useFieldArray({ control, name: 'followUpMessages' })
  const followUpEnabled = watch('followUpEnabled')
  const firstWritten = watch('messages').find((m) => m.text.trim() !== '')?.text ?? ''
  const touched = Boolean(formState.dirtyFields.messages)
  const ai = useAiStatus()
  const [drafting, setDrafting] = useState(false)
  const [drafted, setDrafted] = useState(false)
  const aiStatus: AiAvailable | null = ai.data?.available === true ? ai.data : null

  const applyDrafts = (drafts: Drafts) => {
    messages.replace(drafts.messages.map((text) => ({ text })))
    if (drafts.followUps.length > 0) {
      form.setValue('followUpEnabled', true, { shouldDirty: true })
      followUps.replace(drafts.followUps.map((text) => ({ text })))
    }
    setDrafted(true)
  }

  return (
    <>
      {aiStatus ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-brand-50/60 px-3 py-2 ring-1 ring-brand-100">
          <p className="flex items-center gap-2 text-sm text-slate-700">
            <Sparkles className="size-4 shrink-0 text-brand-600" aria-hidden="true" />
            Not sure what to write? Let AI draft it from your goal and offer.
            {aiStatus.sandbox && <SandboxBadge />}
          </p>
          <Button
            variant="secondary"
            size="sm"
            icon={<Sparkles className="size-4" aria-hidden="true" />}
            disabled={aiStatus.budget?.exhausted}
            onClick={() => setDrafting(true)}
          >
            Write with AI
          </Button>
          {aiStatus.budget?.exhausted && <AiNote className="w-full">{aiStatus.reason}</AiNote>}
        </div>
      ) : (
        ai.data && <AiNote>{ai.data.reason ?? 'AI writing is not available.'}</AiNote>
      )}
      {drafted && (
        <p
          role="status"
          className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200"
        >
          AI drafts added below. Read and edit them: nothing is saved until you create the campaign.
        </p>
      )}
      {aiStatus && (
        <WriteWithAiDialog
          open={drafting}
          onClose={() => setDrafting(false)}
          platform={platform}
          status={aiStatus}
          initialFollowUps={followUpEnabled ? Math.max(1, Math.min(3, followUps.fields.length)) : 2}
          onDrafts={applyDrafts}
        />
      )}
      <p className="text-sm text-slate-600">
        Each lead gets one of these messages (rotating between them keeps your outreach from looking
        automated). Use <code className="rounded bg-slate-100 px-1 text-brand-700">{'{username}'}</code> and{' '}
        <code className="rounded bg-slate-100 px-1 text-brand-700">{'{name}'}</code> to personalise, and{' '}
        <code className="rounded bg-slate-100 px-1 text-brand-700">{'{Hi|Hello|Hey}'}</code> to vary the
        wording: each lead gets one of the options at random.
      </p>
      {messages.fields.map((field, index) => (
        <div key={field.id} className="flex items-start gap-2">
          <Field id={`dm-message-${index}`} label={`Initial message ${index + 1}`} className="flex-1">
            <Textarea
              id={`dm-message-${index}`}
              rows={3}
              placeholder={
                index === 0 ? 'Hey {name}, loved your recent post about…' : 'Another variation (optional)'
              }
              {...register(`messages.${index}.text`)}
            />
          </Field>
          <button
            type="button"
            className="mt-8 rounded-lg p-2 text-slate-400 hover:bg-red-50 hover:text-red-600 disabled:cursor-not-allowed disabled:opacity-40"
            aria-label={`Remove message ${index + 1}`}
            disabled={messages.fields.length <= 1}
            onClick={() => messages.remove(index)}
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </button>
        </div>
      ))}
      {touched && problems.messages && (
        <p className="text-xs font-medium text-red-600">{problems.messages}</p>
      )}
      <Button
        variant="ghost"
        size="sm"
        icon={<Plus className="size-4" aria-hidden="true" />}
        disabled={messages.fields.length >= MAX_MESSAGES}
        onClick={() => messages.append({ text: '' })}
      >
        Add message
      </Button>
      <WinnerRuleField form={form} problems={problems} />
      <Field
        id="dm-no-name"
        label="Message when the lead's name is unknown"
        optional
        hint="Sent instead of a message that uses {name} when a profile has no name."
      >
        <Textarea id="dm-no-name" rows={2} {...register('noFirstnameMessage')} />
      </Field>
      <MessagePreview
        template={firstWritten}
        fallback={watch('noFirstnameMessage')}
        aiSourceId={watch('aiPersonalization') ? watch('scrapingCampaignId') || null : null}
      />
      <div className="rounded-xl ring-1 ring-slate-200">
        <CheckboxField
          id="dm-follow-up"
          label="Send follow-ups"
          description="Stops as soon as the lead replies."
          {...register('followUpEnabled')}
        />
        {followUpEnabled && (
          <div className="space-y-3 border-t border-slate-100 p-3">
            <Field
              id="dm-follow-up-days"
              label="Days between messages"
              error={problems.followUpDays}
              hint="1 to 30 days"
            >
              <Input
                id="dm-follow-up-days"
                type="number"
                min={1}
                max={30}
                className="w-28"
                {...register('followUpDays', { valueAsNumber: true })}
              />
            </Field>
            {followUps.fields.map((field, index) => (
              <div key={field.id} className="flex items-start gap-2">
                <Field id={`dm-follow-up-${index}`} label={`Follow-up ${index + 1}`} className="flex-1">
                  <Textarea
                    id={`dm-follow-up-${index}`}
                    rows={2}
                    {...register(`followUpMessages.${index}.text`)}
                  />
                </Field>
                <button
                  type="button"
                  className="mt-8 rounded-lg p-2 text-slate-400 hover:bg-red-50 hover:text-red-600 disabled:cursor-not-allowed disabled:opacity-40"
                  aria-label={`Remove follow-up ${index + 1}`}
                  disabled={followUps.fields.length <= 1}
                  onClick={() => followUps.remove(index)}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </div>
            ))}
            {problems.followUpMessages && (
              <p className="text-xs font-medium text-red-600">{problems.followUpMessages}</p>
            )}
            <Button
              variant="ghost"
              size="sm"
              icon={<Plus className="size-4" aria-hidden="true" />}
              disabled={followUps.fields.length >= MAX_MESSAGES}
              onClick={() => followUps.append({ text: '' })}
            >
              Add follow-up
            </Button>
          </div>
        )}
      </div>
      {aiStatus && (
        <div className="rounded-xl ring-1 ring-slate-200">
          <CheckboxField
            id="dm-ai-personalization"
            label={
              <span className="inline-flex items-center gap-2">
                Personalise each message with AI {aiStatus.sandbox && <SandboxBadge />}
              </span>
            }
            description="Rewrites your message for each lead from their name, bio and recent posts when it is sent. If the AI fails, is too slow or today's budget is used up, your message goes out as written."
            {...register('aiPersonalization')}
          />
          {aiStatus.budget?.exhausted && watch('aiPersonalization') && (
            <AiNote className="px-3 pb-3">{aiStatus.reason} Until then messages go out as written.</AiNote>
          )}
        </div>
      )}
    </>
  )
}

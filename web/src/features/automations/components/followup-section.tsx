import { Clock } from 'lucide-react'
import { type Control, Controller, type FieldErrors, type UseFormRegister, useWatch } from 'react-hook-form'
import { Input, Textarea } from '@/components/ui/form-field'
import { Switch } from '@/components/ui/switch'
import { cn } from '@/lib/cn'
import {
  type AutomationFormValues,
  byteLength,
  canFollowUp,
  FOLLOWUP_NOT_FOR_COMMENTS,
  FOLLOWUP_RULE,
  LIMITS,
} from '../automation-form'

const LABEL = "Follow up if they don't answer"

/**
 * The automation's one optional follow-up: a text and a delay after its DM. Offered for DM and
 * story triggers only, and said why not for a comment; the 24-hour rule in one sentence.
 */
export function FollowupSection({
  control,
  register,
  errors,
}: {
  control: Control<AutomationFormValues>
  register: UseFormRegister<AutomationFormValues>
  errors: FieldErrors<AutomationFormValues>
}) {
  const [trigger, on, text] = useWatch({ control, name: ['trigger', 'followupOn', 'followupText'] })
  const allowed = canFollowUp(trigger)
  const bytes = byteLength(text.trim())
  const delayError = errors.followupHours?.message ?? errors.followupMinutes?.message
  return (
    <section
      aria-labelledby="followup-heading"
      className="space-y-3 rounded-xl px-4 py-3 ring-1 ring-slate-200"
      data-testid="followup-section"
    >
      <div className="flex items-start justify-between gap-4">
        <div>
          <h3 id="followup-heading" className="text-sm font-medium text-slate-800">
            {LABEL} <span className="font-normal text-slate-400">(optional)</span>
          </h3>
          <p className="text-xs text-slate-500">
            {allowed
              ? 'One more DM after a wait, only if they have not written back.'
              : FOLLOWUP_NOT_FOR_COMMENTS}
          </p>
        </div>
        <Controller
          control={control}
          name="followupOn"
          render={({ field }) => (
            <Switch
              checked={allowed && field.value}
              onChange={field.onChange}
              label={LABEL}
              disabled={!allowed}
            />
          )}
        />
      </div>

      {allowed && on && (
        <>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Send it after</legend>
            <div className="mt-1.5 flex flex-wrap items-center gap-2">
              <div className="w-20">
                <Input
                  id="followup-hours"
                  inputMode="numeric"
                  aria-label="Hours"
                  aria-invalid={Boolean(errors.followupHours)}
                  aria-describedby={delayError ? 'followup-delay-error' : 'followup-delay-hint'}
                  className="text-right tabular-nums"
                  {...register('followupHours')}
                />
              </div>
              <span className="text-sm text-slate-600">hours</span>
              <div className="w-20">
                <Input
                  id="followup-minutes"
                  inputMode="numeric"
                  aria-label="Minutes"
                  aria-invalid={Boolean(errors.followupMinutes)}
                  aria-describedby={delayError ? 'followup-delay-error' : 'followup-delay-hint'}
                  className="text-right tabular-nums"
                  {...register('followupMinutes')}
                />
              </div>
              <span className="text-sm text-slate-600">minutes after the automation's reply</span>
            </div>
            {delayError ? (
              <p id="followup-delay-error" className="mt-1.5 text-xs font-medium text-red-600">
                {delayError}
              </p>
            ) : (
              <p id="followup-delay-hint" className="mt-1.5 text-xs text-slate-500">
                From 1 minute to 23 hours 59 minutes.
              </p>
            )}
          </fieldset>

          <div>
            <label htmlFor="followup-text" className="block text-sm font-medium text-slate-700">
              Follow-up message
            </label>
            <Textarea
              id="followup-text"
              rows={3}
              className="mt-1.5"
              placeholder="Still thinking about it? Reply here and I'll help 🙂"
              aria-invalid={Boolean(errors.followupText)}
              aria-describedby={errors.followupText ? 'followup-text-error' : 'followup-text-hint'}
              {...register('followupText')}
            />
            <p
              id={errors.followupText ? 'followup-text-error' : 'followup-text-hint'}
              className={cn(
                'mt-1.5 flex justify-between gap-3 text-xs',
                errors.followupText ? 'font-medium text-red-600' : 'text-slate-500',
              )}
            >
              <span>{errors.followupText?.message ?? 'Sent as a DM in the same conversation.'}</span>
              <span className={cn('tabular-nums', bytes > LIMITS.replyBytes && 'text-red-600')}>
                {bytes}/{LIMITS.replyBytes}
              </span>
            </p>
          </div>
        </>
      )}

      {allowed && (
        <p className="flex items-start gap-2 text-xs text-slate-600">
          <Clock className="mt-0.5 size-3.5 shrink-0 text-slate-400" aria-hidden="true" />
          {FOLLOWUP_RULE}
        </p>
      )}
    </section>
  )
}

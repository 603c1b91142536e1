import { DM_LIMITS } from '@reachflow/domain'
import type { UseFormReturn } from 'react-hook-form'
import { CheckboxField, Field, Input } from '@/components/ui/form-field'
import type { CampaignForm } from '../../campaign-form'

const { min: MIN_SENDS, max: MAX_SENDS } = DM_LIMITS.winnerAfterSends

/**
 * Optionally stop rotating once one opening message clearly gets more replies. Only
 * meaningful with two or more messages, so it says so until there are two.
 */
export function WinnerRuleField({
  form,
  problems,
}: {
  form: UseFormReturn<CampaignForm>
  problems: Record<string, string>
}) {
  const { register, watch } = form
  const written = watch('messages').filter((m) => m.text.trim() !== '').length
  const enabled = watch('useWinner') && written >= 2
  return (
    <div className="rounded-xl ring-1 ring-slate-200">
      <CheckboxField
        id="dm-use-winner"
        label="Use the winner after N sends per variant"
        description={
          written >= 2
            ? 'Once every message has N sends and one gets clearly more replies (95% confidence), only that one is sent.'
            : 'Write at least two messages to compare them.'
        }
        disabled={written < 2}
        {...register('useWinner')}
      />
      {enabled && (
        <div className="border-t border-slate-100 p-3">
          <Field
            id="dm-winner-after"
            label="Sends per variant before choosing"
            error={problems.winnerAfterSends}
            hint={`${MIN_SENDS} to ${MAX_SENDS.toLocaleString('en-US')}; more sends give a surer winner.`}
          >
            <Input
              id="dm-winner-after"
              type="number"
              min={MIN_SENDS}
              max={MAX_SENDS}
              className="w-32"
              {...register('winnerAfterSends', { valueAsNumber: true })}
            />
          </Field>
        </div>
      )}
    </div>
  )
}

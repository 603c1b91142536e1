import type { UseFormReturn } from 'react-hook-form'
import { Field, Input, Select } from '@/components/ui/form-field'
import type { SenderAccount } from '../../api/get-sender-accounts'
import { NO_ACTIVE_ACCOUNTS } from '../../api/get-sender-accounts'
import type { CampaignForm } from '../../campaign-form'

export function SetupStep({
  form,
  accounts,
  problems,
}: {
  form: UseFormReturn<CampaignForm>
  accounts: SenderAccount[] | undefined
  problems: Record<string, string>
}) {
  const { register, formState } = form
  // Named once the user has left the field (validate on blur), so an emptied name says why Next
  // is disabled without scolding while they type.
  const shown = (field: keyof CampaignForm) => (formState.touchedFields[field] ? problems[field] : undefined)
  return (
    <>
      <Field id="dm-name" label="Campaign name" error={shown('name')}>
        <Input
          id="dm-name"
          placeholder="e.g. SaaS founders outreach"
          autoComplete="off"
          {...register('name')}
        />
      </Field>
      <Field
        id="dm-account"
        label="Send from account"
        error={accounts?.length === 0 ? NO_ACTIVE_ACCOUNTS : undefined}
      >
        <Select id="dm-account" disabled={!accounts || accounts.length === 0} {...register('accountId')}>
          <option value="">{accounts ? 'Choose an account' : 'Loading accounts...'}</option>
          {accounts?.map((account) => (
            <option key={account.id} value={account.id}>
              @{account.username} · {account.platform?.display_name ?? 'Unknown'}
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="dm-industry" label="Industry" optional>
          <Input id="dm-industry" placeholder="e.g. B2B SaaS" {...register('industry')} />
        </Field>
        <Field id="dm-stage" label="Stage" optional>
          <Input id="dm-stage" placeholder="e.g. Prospecting" {...register('stage')} />
        </Field>
      </div>
    </>
  )
}

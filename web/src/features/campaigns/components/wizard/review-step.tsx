import { PlayCircle, Save } from 'lucide-react'
import type { UseFormReturn } from 'react-hook-form'
import { PlatformRulesNote } from '@/components/accounts/platform-rules-note'
import { XApiCostNote } from '@/components/accounts/x-api-cost-note'
import { CheckboxField } from '@/components/ui/form-field'
import { pluralize } from '@/lib/format'
import type { LeadSource } from '../../api/get-lead-sources'
import type { SenderAccount } from '../../api/get-sender-accounts'
import { type CampaignForm, DM_TEXT, winnerRuleApplies } from '../../campaign-form'

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 py-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{value}</dd>
    </div>
  )
}

export function ReviewStep({
  form,
  accounts,
  sources,
}: {
  form: UseFormReturn<CampaignForm>
  accounts: SenderAccount[] | undefined
  sources: LeadSource[] | undefined
}) {
  const values = form.watch()
  const account = accounts?.find((a) => a.id === values.accountId)
  const source = sources?.find((s) => s.id === values.scrapingCampaignId)
  const written = values.messages.filter((m) => m.text.trim() !== '').length
  return (
    <>
      <dl className="divide-y divide-slate-100 rounded-xl px-4 ring-1 ring-slate-200">
        <Row label="Name" value={values.name} />
        <Row
          label="Account"
          value={account ? `@${account.username} (${account.platform?.display_name ?? ''})` : '—'}
        />
        <Row label="Lead source" value={source ? `${source.name} · ${source.leads_collected} leads` : '—'} />
        <Row
          label="Messages"
          value={`${written} initial${values.followUpEnabled ? `, follow-ups every ${pluralize(Number(values.followUpDays), 'day')}` : ', no follow-ups'}`}
        />
        {written >= 2 && (
          <Row
            label="Winner"
            value={
              winnerRuleApplies(values)
                ? `Only the winner after ${values.winnerAfterSends.toLocaleString('en-US')} sends per variant`
                : 'Keep rotating all messages'
            }
          />
        )}
        {values.aiPersonalization && (
          <Row label="AI personalisation" value="On (falls back to your message)" />
        )}
        <Row label="Daily limit" value={`${values.dailyLimit} messages`} />
        <Row
          label="Schedule"
          value={`${values.timeFrom}–${values.timeTo} ${values.timezone}, ${values.activeDays.map((d) => d.slice(0, 3)).join(', ')}`}
        />
      </dl>
      {account?.connection === 'official' && account.platform?.name === 'twitter' && (
        <XApiCostNote dmsPerDay={Number(values.dailyLimit)} />
      )}
      <CheckboxField
        id="dm-run-now"
        label="Start sending right away"
        description="Otherwise the campaign is saved as a draft."
        {...form.register('runImmediately')}
      />
      <p
        className="flex items-center gap-2 rounded-xl bg-brand-50 px-4 py-3 text-sm font-medium text-brand-800"
        data-testid="dm-review-mode"
      >
        {values.runImmediately ? (
          <PlayCircle className="size-4" aria-hidden="true" />
        ) : (
          <Save className="size-4" aria-hidden="true" />
        )}
        {values.runImmediately ? DM_TEXT.startsNow : DM_TEXT.draft}
      </p>
      <PlatformRulesNote context="launch" />
    </>
  )
}

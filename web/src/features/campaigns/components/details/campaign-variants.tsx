import { DM_DEFAULTS, DM_LIMITS } from '@reachflow/domain'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Lightbulb, Sparkles, Trophy } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { PanelLoading } from '@/components/ui/details-body'
import { CheckboxField, Input } from '@/components/ui/form-field'
import { ReadOnlyNote } from '@/components/ui/read-only-note'
import { useToast } from '@/components/ui/toast'
import { formatCount, formatDateTime } from '@/lib/format'
import { LIVE_POLL_MS, queryRoots } from '@/lib/query-keys'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { getVariantStats } from '../../api/get-variant-stats'
import type { Campaign } from '../../api/types'
import { updateWinnerRule } from '../../api/update-winner-rule'
import { DM_TEXT } from '../../campaign-form'

const { min: MIN_SENDS, max: MAX_SENDS } = DM_LIMITS.winnerAfterSends

import {
  confidenceHint,
  currentOpenings,
  likelyRange,
  replyRatePercent,
  type VariantRow,
  variantLabel,
} from '../../variant-results'
import { SectionTitle } from './detail-bits'

/** Sent, replies and reply rate per opening message and follow-up, and the winner rule. */
export function CampaignVariants({ campaign, live }: { campaign: Campaign; live: boolean }) {
  const canEdit = useCanEditWorkspace()
  const variants = useQuery({
    queryKey: [queryRoots.campaigns, 'variants', campaign.id],
    queryFn: () => getVariantStats(campaign.id),
    refetchInterval: live ? LIVE_POLL_MS : false,
  })
  if (variants.isPending) return <PanelLoading label="Loading analytics..." />
  if (variants.isError)
    return (
      <p className="rounded-xl bg-red-50 px-4 py-3 text-sm text-red-700" role="alert">
        {variants.error.message}
      </p>
    )

  const rows = variants.data
  const openings = rows.filter((r) => r.step === 0)
  const followUps = rows.filter((r) => r.step > 0)
  const hint = confidenceHint(rows)
  const winner = rows.find((r) => r.is_winner)
  return (
    <section className="space-y-4" aria-labelledby="variants-title" data-testid="campaign-variants">
      <div>
        <SectionTitle>
          <span id="variants-title">Results per message</span>
        </SectionTitle>
        <p className="-mt-1 text-xs text-slate-500">
          Replies count a lead who answered at any point after the opening message; a follow-up counts replies
          that came after it, before the next message.
        </p>
      </div>
      {winner && (
        <p
          className="flex items-start gap-2 rounded-xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200"
          data-testid="variant-winner"
        >
          <Trophy className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            <strong>{variantLabel(winner)} won</strong>
            {campaign.winner_chosen_at ? ` on ${formatDateTime(campaign.winner_chosen_at)}` : ''} — only it is
            sent to new leads now.
          </span>
        </p>
      )}
      {hint && !winner && (
        <p
          className="flex items-start gap-2 rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-900"
          data-testid="variant-hint"
        >
          <Lightbulb className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {hint}
        </p>
      )}
      <VariantList title="Opening messages" rows={openings} />
      {followUps.length > 0 && <VariantList title="Follow-ups" rows={followUps} />}
      {canEdit ? (
        <WinnerRule campaign={campaign} comparable={currentOpenings(rows).length >= 2} />
      ) : (
        <WinnerRuleSummary winnerAfterSends={campaign.winner_after_sends ?? null} />
      )}
    </section>
  )
}

function VariantList({ title, rows }: { title: string; rows: VariantRow[] }) {
  const best = Math.max(0, ...rows.map(replyRatePercent))
  return (
    <div>
      <h5 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</h5>
      <ul className="space-y-2">
        {rows.map((row) => {
          const label = variantLabel(row)
          const rate = replyRatePercent(row)
          const range = likelyRange(row)
          return (
            <li
              key={`${row.step}-${row.kind}-${row.variant_id ?? row.template ?? 'unknown'}`}
              className="rounded-xl p-4 ring-1 ring-slate-200"
              data-testid="variant-row"
              data-variant={label}
            >
              <div className="flex flex-wrap items-center gap-2">
                <p className="text-sm font-semibold text-slate-900">{label}</p>
                {row.is_winner && (
                  <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                    Winner
                  </span>
                )}
                {row.kind === 'opening' && row.current_slot === null && (
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
                    No longer sent
                  </span>
                )}
              </div>
              <p className="mt-1 line-clamp-2 text-sm break-words text-slate-600">
                {row.template ?? 'Sent before results per message were recorded.'}
              </p>
              {row.personalized > 0 && <PersonalizedSends row={row} />}
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
                <Figure label="Sent" value={formatCount(row.sent)} testId="variant-sent" />
                <Figure label="Replies" value={formatCount(row.replies)} testId="variant-replies" />
                <Figure label="Reply rate" value={`${rate}%`} testId="variant-rate" />
                <Figure label="Likely range" value={range ?? '—'} />
              </dl>
              <div
                className="mt-3 h-1.5 overflow-hidden rounded-full bg-slate-100"
                role="presentation"
                aria-hidden="true"
              >
                <div
                  className={`h-full rounded-full ${rate > 0 && rate === best ? 'bg-emerald-500' : 'bg-brand-400'}`}
                  style={{ width: `${Math.min(100, rate)}%` }}
                />
              </div>
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/** The variant's sends the AI rewrote: credited to it, with what actually went out. */
function PersonalizedSends({ row }: { row: VariantRow }) {
  return (
    <div className="mt-2 rounded-lg bg-violet-50 px-3 py-2 text-xs text-violet-900 ring-1 ring-violet-100">
      <p className="flex items-center gap-1.5 font-semibold" data-testid="variant-personalized">
        <Sparkles className="size-3.5 shrink-0" aria-hidden="true" />
        Personalised by AI: {formatCount(row.personalized)} of {formatCount(row.sent)} sent
      </p>
      {row.personalized_sample && (
        <p className="mt-1 line-clamp-3 break-words text-violet-800">
          <span className="font-medium">Latest sent: </span>
          {row.personalized_sample}
        </p>
      )}
    </div>
  )
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  )
}

/** The winner rule as a role that only reads sees it: what is set, and no form to change it. */
function WinnerRuleSummary({ winnerAfterSends }: { winnerAfterSends: number | null }) {
  return (
    <div className="rounded-xl bg-slate-50 p-3 text-sm ring-1 ring-slate-200/70" data-testid="winner-rule">
      <p className="font-medium text-slate-800">
        {winnerAfterSends === null
          ? 'All messages keep rotating'
          : `Use the winner after ${formatCount(winnerAfterSends)} sends per variant`}
      </p>
      <ReadOnlyNote className="mt-1 text-xs" />
    </div>
  )
}

/** The "use the winner after N sends per variant" rule of an existing campaign. */
function WinnerRule({ campaign, comparable }: { campaign: Campaign; comparable: boolean }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [enabled, setEnabled] = useState((campaign.winner_after_sends ?? null) !== null)
  const [sends, setSends] = useState(String(campaign.winner_after_sends ?? DM_DEFAULTS.winnerAfterSends))
  const value = Number(sends)
  const valid = Number.isInteger(value) && value >= MIN_SENDS && value <= MAX_SENDS
  const wanted = enabled ? value : null
  const changed = wanted !== (campaign.winner_after_sends ?? null)
  const locked = campaign.status === 'completed'
  const save = useMutation({
    mutationFn: () => updateWinnerRule(campaign.id, wanted),
    onSuccess: () => {
      toast.success(
        wanted === null ? 'All messages keep rotating' : `Winner rule saved: after ${wanted} sends`,
      )
      void queryClient.invalidateQueries({ queryKey: [queryRoots.campaigns] })
    },
  })
  return (
    <form
      className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200/70"
      onSubmit={(event) => {
        event.preventDefault()
        if (!enabled || valid) save.mutate()
      }}
    >
      <CheckboxField
        id="variant-use-winner"
        label="Use the winner after N sends per variant"
        description={
          locked
            ? 'The campaign is completed.'
            : comparable
              ? 'Once every opening message has N sends and one gets clearly more replies (95% confidence), only that one is sent.'
              : 'Needs at least two opening messages to compare.'
        }
        checked={enabled}
        disabled={locked || (!comparable && !enabled)}
        onChange={(event) => setEnabled(event.target.checked)}
      />
      {enabled && (
        <div className="mt-2 flex flex-wrap items-end gap-3 px-2 pb-1">
          <div>
            <label htmlFor="variant-winner-after" className="block text-xs font-medium text-slate-600">
              Sends per variant
            </label>
            <Input
              id="variant-winner-after"
              type="number"
              min={MIN_SENDS}
              max={MAX_SENDS}
              className="mt-1 w-32"
              value={sends}
              disabled={locked}
              aria-invalid={!valid}
              aria-describedby={valid ? undefined : 'variant-winner-after-error'}
              onChange={(event) => setSends(event.target.value)}
            />
          </div>
          {!valid && (
            <p id="variant-winner-after-error" className="pb-2 text-xs font-medium text-red-600">
              {DM_TEXT.winnerAfterSends}
            </p>
          )}
        </div>
      )}
      {(changed || save.isError) && !locked && (
        <div className="mt-2 flex flex-wrap items-center gap-3 px-2">
          <Button type="submit" size="sm" loading={save.isPending} disabled={enabled && !valid}>
            Save
          </Button>
          {save.isError && (
            <p className="text-xs font-medium text-red-600" role="alert">
              {save.error.message}
            </p>
          )}
        </div>
      )}
    </form>
  )
}

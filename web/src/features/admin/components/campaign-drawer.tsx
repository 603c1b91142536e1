// Monitor: a campaign's progress (leads by state, sent, replies, today's sends against its daily
// limit) and its latest message log, refreshed every 5 s while open.

import type { AdminCampaign, CampaignDetail } from '@reachflow/domain'
import { useCallback } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { relativeTime } from '@/lib/relative-time'
import { getCampaign } from '../api/get-campaign'
import { formatDateTime, formatNumber, formatPercent, humanize } from '../format'
import { usePolling } from '../hooks/use-polling'
import { Drawer, DrawerSection, Fact, FactGrid } from './drawer'
import { Pill } from './pill'
import { Progress } from './progress'
import { POLL_MS } from './tab-props'

function LeadBar({ leads }: { leads: CampaignDetail['leads'] }) {
  const parts: [keyof CampaignDetail['leads'], string, string][] = [
    ['contacted', 'Contacted', 'bg-brand-500'],
    ['inFlight', 'Sending', 'bg-sky-400'],
    ['failed', 'Failed', 'bg-red-400'],
    ['skipped', 'Skipped', 'bg-slate-300'],
    ['pending', 'Waiting', 'bg-slate-200'],
  ]
  const total = Math.max(1, leads.total)
  return (
    <div>
      <div className="flex h-2.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        {parts.map(([key, , color]) => (
          <div key={key} className={color} style={{ width: `${(leads[key] / total) * 100}%` }} />
        ))}
      </div>
      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1.5 text-xs text-slate-600">
        {parts.map(([key, label, color]) => (
          <li key={key} className="flex items-center gap-1.5">
            <span className={`size-2 rounded-full ${color}`} aria-hidden="true" />
            {label}{' '}
            <span className="font-semibold text-slate-900 tabular-nums">{formatNumber(leads[key])}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

function CampaignDetailBody({ id, autoRefresh }: { id: string; autoRefresh: boolean }) {
  const load = useCallback(() => getCampaign(id), [id])
  const { data: c, error } = usePolling(load, { intervalMs: POLL_MS.processes, enabled: autoRefresh })
  if (error && !c) return <p className="text-sm text-red-600">{error.message}</p>
  if (!c)
    return (
      <div className="flex justify-center py-12 text-brand-600">
        <Spinner size={32} label="Loading campaign" />
      </div>
    )
  const replyRate = c.messagesSent > 0 ? (c.responseCount / c.messagesSent) * 100 : 0
  return (
    <>
      <FactGrid>
        <Fact label="Status">
          <Pill status={c.status} />
        </Fact>
        <Fact label="Account">
          {c.accountUsername ? `@${c.accountUsername}` : 'Deleted'} · {humanize(c.platformName)}
        </Fact>
        <Fact label="Contacted / target">
          <Progress done={c.leads.contacted} total={c.targetCount} />
        </Fact>
        <Fact label="Messages sent">{formatNumber(c.messagesSent)}</Fact>
        <Fact label="Replies">
          {formatNumber(c.responseCount)} <span className="text-slate-500">({formatPercent(replyRate)})</span>
        </Fact>
        <Fact label="Today">
          {c.messagesSentToday} of {c.dailyMessageLimit} a day
        </Fact>
        <Fact label="Failed sends">{formatNumber(c.messagesFailed)}</Fact>
        <Fact label="Started">{formatDateTime(c.startedAt, 'Not started')}</Fact>
        <Fact label="Next send">{c.nextActionAt ? formatDateTime(c.nextActionAt) : '—'}</Fact>
        <Fact label="Window">
          {c.schedule.timeFrom ?? '09:00'}–{c.schedule.timeTo ?? '17:00'} {c.schedule.timezone ?? 'UTC'}
        </Fact>
        <Fact label="Owner">{c.userEmail}</Fact>
      </FactGrid>
      {c.errorMessage && (
        <p className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">{c.errorMessage}</p>
      )}

      <DrawerSection title={`Leads (${formatNumber(c.leads.total)})`}>
        <LeadBar leads={c.leads} />
        <p className="mt-2 text-xs text-slate-500">{formatNumber(c.leads.replied)} replied</p>
      </DrawerSection>

      <DrawerSection title="Recent messages">
        {c.recentMessages.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-200 px-4 py-5 text-center text-sm text-slate-500">
            No messages sent yet
          </p>
        ) : (
          <ul
            className="divide-y divide-slate-100 rounded-xl border border-slate-200"
            aria-label="Recent messages"
          >
            {c.recentMessages.map((m) => (
              <li key={m.id} className="px-4 py-3 text-sm">
                <div className="flex items-center justify-between gap-3">
                  <span className="min-w-0 break-words font-medium text-slate-900">
                    @{m.target_username}
                    {m.message_type === 'follow_up' && (
                      <span className="ml-2 whitespace-nowrap text-xs font-normal text-slate-500">
                        follow-up
                      </span>
                    )}
                  </span>
                  <span className="flex shrink-0 items-center gap-2">
                    <span className="text-xs text-slate-500" title={formatDateTime(m.sent_at)}>
                      {relativeTime(m.sent_at)}
                    </span>
                    <Pill status={m.status === 'sent' ? 'success' : m.status} label={humanize(m.status)} />
                  </span>
                </div>
                {m.message_sent && <p className="mt-1 line-clamp-2 text-slate-600">{m.message_sent}</p>}
                {m.error && <p className="mt-1 text-xs text-red-600">{m.error}</p>}
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>
    </>
  )
}

export function CampaignDrawer({
  campaign,
  onClose,
  autoRefresh,
}: {
  campaign: AdminCampaign | null
  onClose: () => void
  autoRefresh: boolean
}) {
  return (
    <Drawer
      open={campaign !== null}
      onClose={onClose}
      title={campaign?.name}
      description={campaign?.user_email}
    >
      {campaign && <CampaignDetailBody id={campaign.id} autoRefresh={autoRefresh} />}
    </Drawer>
  )
}

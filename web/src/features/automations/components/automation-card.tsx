import { AlertTriangle, Pencil, Trash2 } from 'lucide-react'
import { Switch } from '@/components/ui/switch'
import { relativeTime } from '@/lib/relative-time'
import { NO_FOLLOWUPS } from '../api/get-automation-results'
import type { Automation, AutomationResults } from '../api/types'
import { type AutomationTrigger, TRIGGER_LABEL } from '../automation-form'
import { FollowupSummary } from './followup-summary'

const NO_RESULTS: AutomationResults = {
  triggered: 0,
  sent: 0,
  refused: 0,
  failed: 0,
  replied: 0,
  conversationsStarted: 0,
  refusals: [],
  lastTriggeredAt: null,
  followups: NO_FOLLOWUPS,
}

function triggerLine(automation: Automation): string {
  const label = TRIGGER_LABEL[automation.trigger as AutomationTrigger] ?? automation.trigger
  if (automation.trigger !== 'comment_keyword') return label
  return `${label} · ${automation.media_id ? 'one post' : 'any post or reel'}`
}

function Figure({ label, value, tone }: { label: string; value: number; tone?: 'red' }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd
        className={`mt-0.5 text-lg font-semibold tabular-nums ${tone === 'red' && value > 0 ? 'text-red-700' : 'text-slate-900'}`}
      >
        {value.toLocaleString('en-US')}
      </dd>
    </div>
  )
}

/** One automation: what triggers it, its keywords, on or off, and what it did. */
export function AutomationCard({
  automation,
  results = NO_RESULTS,
  toggling,
  readOnly = false,
  onToggle,
  onEdit,
  onDelete,
}: {
  automation: Automation
  results?: AutomationResults
  toggling: boolean
  /** A role that only reads (a viewer): the switch shows the state but does not turn, no edit or delete. */
  readOnly?: boolean
  onToggle: (enabled: boolean) => void
  onEdit: () => void
  onDelete: () => void
}) {
  const refused = results.refused + results.failed
  return (
    <article
      aria-label={automation.name}
      data-testid="automation-card"
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-card"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate font-semibold text-slate-900">{automation.name}</h3>
          <p className="mt-0.5 text-xs text-slate-500">{triggerLine(automation)}</p>
        </div>
        <div className="flex items-center gap-2">
          <span
            className={`text-xs font-medium ${automation.enabled ? 'text-emerald-700' : 'text-slate-500'}`}
          >
            {automation.enabled ? 'On' : 'Paused'}
          </span>
          {/* a role that only reads sees the state, not a switch it may not flip */}
          {!readOnly && (
            <Switch
              checked={automation.enabled}
              disabled={toggling}
              onChange={onToggle}
              label={`${automation.name} enabled`}
            />
          )}
        </div>
      </div>
      {automation.keywords.length > 0 ? (
        <ul aria-label="Keywords" className="mt-3 flex flex-wrap gap-1.5">
          {automation.keywords.map((k) => (
            <li
              key={k}
              className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-brand-600/20 ring-inset"
            >
              {k}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-xs text-slate-500">
          Answers every {automation.trigger === 'story_mention' ? 'story mention' : 'story reply'}, no keyword
          needed
        </p>
      )}
      <p className="mt-3 line-clamp-2 text-sm text-slate-600">“{automation.reply_text}”</p>
      <dl className="mt-4 grid grid-cols-3 gap-2">
        <Figure label="Triggered" value={results.triggered} />
        <Figure label="Sent" value={results.sent} />
        <Figure label="Refused" value={refused} tone="red" />
        <Figure label="Replied" value={results.replied} />
        <Figure label="Conversations started" value={results.conversationsStarted} />
      </dl>
      {results.refusals.length > 0 && (
        <div className="mt-3 rounded-lg bg-red-50 px-3 py-2 ring-1 ring-red-100">
          <p className="flex items-center gap-1.5 text-xs font-medium text-red-800">
            <AlertTriangle className="size-3.5" aria-hidden="true" />
            Why replies were refused
          </p>
          <ul className="mt-1 space-y-0.5">
            {results.refusals.map((r) => (
              <li key={r.reason} className="text-xs text-red-700">
                <span className="font-semibold tabular-nums">{r.count}×</span> {r.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {automation.followup_text !== null && automation.followup_delay_minutes !== null && (
        <FollowupSummary
          text={automation.followup_text}
          delayMinutes={automation.followup_delay_minutes}
          results={results.followups}
        />
      )}
      <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-3">
        <p className="text-xs text-slate-400">
          {results.lastTriggeredAt
            ? `Last triggered ${relativeTime(results.lastTriggeredAt).toLowerCase()}`
            : 'Not triggered yet'}
        </p>
        {!readOnly && (
          <div className="flex gap-1">
            <button
              type="button"
              onClick={onEdit}
              className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
              aria-label={`Edit ${automation.name}`}
            >
              <Pencil className="size-4" aria-hidden="true" />
              Edit
            </button>
            <button
              type="button"
              onClick={onDelete}
              className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-red-600 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-red-600"
              aria-label={`Delete ${automation.name}`}
            >
              <Trash2 className="size-4" aria-hidden="true" />
              Delete
            </button>
          </div>
        )}
      </div>
    </article>
  )
}

// A status pill for the admin tables. The shared StatusBadge speaks the product's eleven labels; the
// admin tab also shows subscription, account and process states (trialing, flagged, unresponsive…),
// so it names each state itself and borrows the badge's colours and meaning.
import { cn } from '@/lib/cn'
import { humanize } from '../format'

export type PillTone = 'green' | 'yellow' | 'red' | 'grey' | 'blue'

const TONES: Record<string, PillTone> = {
  active: 'green',
  success: 'green',
  running: 'green',
  completed: 'green',
  passed: 'green',
  done: 'green',
  resumed: 'green',
  trialing: 'blue',
  queued: 'blue',
  testing: 'blue',
  retry: 'blue',
  created: 'grey',
  pending: 'grey',
  draft: 'grey',
  none: 'grey',
  canceled: 'grey',
  cancelled: 'grey',
  inactive: 'red',
  warning: 'yellow',
  paused: 'yellow',
  past_due: 'yellow',
  unresponsive: 'yellow',
  stopping: 'yellow',
  acknowledged: 'yellow',
  flagged: 'red',
  error: 'red',
  failed: 'red',
  stopped: 'red',
  suspended: 'red',
  incomplete: 'red',
}

const LABELS: Record<string, string> = {
  none: 'No plan',
  past_due: 'Past due',
  retry: 'Retrying',
  created: 'Waiting',
}

const toneClasses: Record<PillTone, string> = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  yellow: 'bg-amber-50 text-amber-800 ring-amber-600/25',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  grey: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  blue: 'bg-brand-50 text-brand-700 ring-brand-600/20',
}

const dotClasses: Record<PillTone, string> = {
  green: 'bg-emerald-500',
  yellow: 'bg-amber-500',
  red: 'bg-red-500',
  grey: 'bg-slate-400',
  blue: 'bg-brand-500',
}

export const toneOf = (status: string): PillTone => TONES[status.toLowerCase()] ?? 'grey'

export function Pill({ status, label, className }: { status: string; label?: string; className?: string }) {
  const tone = toneOf(status)
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        toneClasses[tone],
        className,
      )}
      data-status={status}
      data-tone={tone}
    >
      <span className={cn('size-1.5 rounded-full', dotClasses[tone])} aria-hidden="true" />
      {label ?? LABELS[status.toLowerCase()] ?? humanize(status)}
    </span>
  )
}

import { AlertTriangle, CheckCircle2, Clock, type LucideIcon, Pause, PlayCircle, XCircle } from 'lucide-react'
import { cn } from '@/lib/cn'
import { type BadgeIcon, type BadgeTone, badgeStyle } from './status-badge-style'

const toneClasses: Record<BadgeTone, string> = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  yellow: 'bg-amber-50 text-amber-800 ring-amber-600/25',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  grey: 'bg-slate-100 text-slate-700 ring-slate-500/20',
}

const icons: Record<BadgeIcon, LucideIcon> = {
  check: CheckCircle2,
  running: PlayCircle,
  alert: AlertTriangle,
  cross: XCircle,
  pause: Pause,
  clock: Clock,
}

export function StatusBadge({
  status,
  label,
  className,
}: {
  status: string | null | undefined
  /** Replaces the status's own label (same colour and icon). */
  label?: string
  className?: string
}) {
  const style = badgeStyle(status)
  const Icon = icons[style.icon]
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        toneClasses[style.tone],
        className,
      )}
      data-tone={style.tone}
      data-icon={style.icon}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {label ?? style.label}
    </span>
  )
}

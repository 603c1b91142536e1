import { Bell, CircleCheck, CircleX, Flame, ShieldAlert } from 'lucide-react'
import { cn } from '@/lib/cn'

// product.md §2: these four types have their own icon, every other type the generic one.
const ICONS = {
  campaign_completed: { Icon: CircleCheck, tone: 'bg-emerald-50 text-emerald-600' },
  campaign_failed: { Icon: CircleX, tone: 'bg-red-50 text-red-600' },
  account_flagged: { Icon: ShieldAlert, tone: 'bg-amber-50 text-amber-600' },
  warmup_phase_completed: { Icon: Flame, tone: 'bg-orange-50 text-orange-600' },
} as const

const GENERIC = { Icon: Bell, tone: 'bg-slate-100 text-slate-500' }

/** Which icon a notification type gets ('generic' for types without their own). */
export function notificationIconKind(type: string): keyof typeof ICONS | 'generic' {
  return type in ICONS ? (type as keyof typeof ICONS) : 'generic'
}

export function NotificationIcon({ type }: { type: string }) {
  const kind = notificationIconKind(type)
  const { Icon, tone } = kind === 'generic' ? GENERIC : ICONS[kind]
  return (
    <span
      className={cn('flex size-9 shrink-0 items-center justify-center rounded-full', tone)}
      data-icon={kind}
      aria-hidden="true"
    >
      <Icon className="size-4.5" />
    </span>
  )
}

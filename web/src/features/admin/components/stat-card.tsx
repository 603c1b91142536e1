import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Card } from '@/components/ui/card'
import { cn } from '@/lib/cn'

const accents = {
  brand: 'bg-brand-50 text-brand-600',
  green: 'bg-emerald-50 text-emerald-600',
  amber: 'bg-amber-50 text-amber-600',
  red: 'bg-red-50 text-red-600',
  slate: 'bg-slate-100 text-slate-600',
} as const

/** Load near full is a warning; a success rate near full is good news. */
function toneFor(percent: number, highIsGood: boolean): string {
  if (highIsGood) return percent >= 90 ? 'bg-emerald-500' : percent >= 70 ? 'bg-amber-500' : 'bg-red-500'
  return percent >= 90 ? 'bg-red-500' : percent >= 70 ? 'bg-amber-500' : 'bg-brand-500'
}

export interface StatCardProps {
  label: string
  value: ReactNode
  icon: LucideIcon
  accent?: keyof typeof accents
  /** A line of detail under the value (e.g. '3 active · 1 trial'). */
  detail?: ReactNode
  /** 0-100: draws a meter under the value. */
  meter?: number
  /** A meter of something good (success rate): high is green, not a warning. */
  meterHighIsGood?: boolean
  testId?: string
}

export function StatCard({
  label,
  value,
  icon: Icon,
  accent = 'brand',
  detail,
  meter,
  meterHighIsGood = false,
  testId,
}: StatCardProps) {
  const meterTone = meter === undefined ? '' : toneFor(meter, meterHighIsGood)
  return (
    <Card className="p-4 sm:p-5" data-testid={testId}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs font-medium text-slate-500 sm:text-sm">{label}</p>
          <p className="mt-1 truncate text-xl font-semibold tracking-tight text-slate-900 tabular-nums sm:mt-1.5 sm:text-2xl">
            {value}
          </p>
        </div>
        <span
          className={cn(
            'hidden size-10 shrink-0 items-center justify-center rounded-xl sm:flex',
            accents[accent],
          )}
        >
          <Icon className="size-5" aria-hidden="true" />
        </span>
      </div>
      {meter !== undefined && (
        <div className="mt-3 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
          <div
            className={cn('h-full rounded-full transition-[width] duration-500', meterTone)}
            style={{ width: `${Math.min(100, Math.max(0, meter))}%` }}
          />
        </div>
      )}
      {detail && <div className="mt-2 text-xs text-slate-600 sm:mt-3 sm:text-sm">{detail}</div>}
    </Card>
  )
}

export function StatGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">{children}</div>
}

import { Flame } from 'lucide-react'
import { cn } from '@/lib/cn'
import { useSpotsLeft } from '../hooks/use-spots-left'
import type { SpotsReading } from '../variants'

export function SpotsLeft({
  reading,
  label,
  className,
}: {
  reading: SpotsReading
  label: string
  className?: string
}) {
  const spots = useSpotsLeft(reading)
  return (
    <p
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full bg-orange-50 px-3 py-1 text-sm font-semibold text-orange-700 ring-1 ring-orange-200',
        className,
      )}
    >
      <Flame className="size-4 shrink-0" aria-hidden="true" />
      {/* One text run, so a narrow screen wraps it as a sentence, not as flex columns. */}
      <span>
        Only <span data-testid="spots-left">{spots}</span> {label}
      </span>
    </p>
  )
}

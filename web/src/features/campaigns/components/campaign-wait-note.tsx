import { Hourglass } from 'lucide-react'
import { cn } from '@/lib/cn'
import type { CampaignWait } from '../api/get-campaign-waits'
import { waitSentence } from '../campaign-wait'

/** Why a sending campaign sends nothing now and when it resumes (the card and the details). */
export function CampaignWaitNote({
  wait,
  large = false,
  className,
}: {
  wait: CampaignWait
  /** The details dialog's size; the card's is small. */
  large?: boolean
  className?: string
}) {
  return (
    <p
      className={cn(
        'flex w-full items-start gap-1.5 rounded-lg bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-amber-200',
        large ? 'text-sm' : 'text-xs',
        className,
      )}
      data-testid="campaign-wait"
    >
      <Hourglass className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>{waitSentence(wait, new Date())}</span>
    </p>
  )
}

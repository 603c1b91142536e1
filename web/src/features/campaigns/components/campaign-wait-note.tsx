import { Hourglass } from 'lucide-react'
import { ChangePlanLink } from '@/components/billing/change-plan-link'
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
      <span>
        {waitSentence(wait, new Date())}
        {large && wait.cause === 'platform' && (
          // 450 DMs a day is each account's ceiling: more a day means more accounts on the plan.
          // Only in the details: the card is itself a button, and a link cannot sit inside one.
          <>
            {' '}
            <ChangePlanLink className="text-amber-900">Add accounts to send more</ChangePlanLink>
          </>
        )}
      </span>
    </p>
  )
}

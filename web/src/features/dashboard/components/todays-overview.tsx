import { MessageCircleReply, Send } from 'lucide-react'
import { Skeleton } from '@/components/ui/skeleton'
import { formatCount } from '@/lib/format'
import type { TodaysOverview as Overview } from '../api/get-todays-overview'

/** Sidebar card: messages sent today and the replies that really arrived today. */
export function TodaysOverview({ data, loading }: { data: Overview | undefined; loading: boolean }) {
  return (
    <section
      aria-labelledby="todays-overview"
      className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200/70"
    >
      <h2 id="todays-overview" className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
        Today's Overview
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3">
        {[
          { label: 'Sent', value: data?.sentToday, icon: Send },
          { label: 'Replies', value: data?.repliesToday, icon: MessageCircleReply },
        ].map(({ label, value, icon: Icon }) => (
          <div key={label}>
            <dt className="flex items-center gap-1.5 text-xs text-slate-500">
              <Icon className="size-3.5" aria-hidden="true" />
              {label}
            </dt>
            <dd
              className="mt-0.5 text-xl font-semibold text-slate-900 tabular-nums"
              data-testid={`today-${label.toLowerCase()}`}
            >
              {loading || value === undefined ? <Skeleton className="h-7 w-10" /> : formatCount(value)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

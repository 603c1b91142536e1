// The dashboard's notice while X or Instagram changed its site and we adapt: what is paused on
// the customer's platforms, that it is not their account and nothing was lost. It is read every
// minute, so it clears within a minute of the platform resuming.
import { useQuery } from '@tanstack/react-query'
import { Info } from 'lucide-react'
import { queryRoots } from '@/lib/query-keys'
import { getPlatformNotices } from '../api/get-platform-notices'

const NOTICE_POLL_MS = 60_000

export function PlatformNotices() {
  const notices = useQuery({
    queryKey: [queryRoots.dashboard, 'platform-notices'],
    queryFn: getPlatformNotices,
    refetchInterval: NOTICE_POLL_MS,
  })
  if (!notices.data || notices.data.length === 0) return null
  return (
    <section aria-label="Platform notices" className="space-y-3" data-testid="platform-notices">
      {notices.data.map((notice) => (
        <div
          key={`${notice.platform}:${notice.action}`}
          role="status"
          className="flex gap-3 rounded-xl bg-amber-50 px-4 py-3.5 ring-1 ring-amber-200 ring-inset"
        >
          <Info className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
          <div className="min-w-0">
            <p className="text-sm font-semibold text-amber-900">{notice.title}</p>
            <p className="mt-0.5 text-sm text-amber-900/90">{notice.message}</p>
          </div>
        </div>
      ))}
    </section>
  )
}

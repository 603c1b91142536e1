import { useInboxOverview } from '../hooks/use-inbox'

/** The Inbox tab's badge: conversations with unread replies; nothing when all are read. */
export function InboxBadge({ active = false }: { active?: boolean }) {
  const overview = useInboxOverview()
  const unread = overview.data?.unread ?? 0
  if (unread === 0) return null
  return (
    <span
      data-testid="inbox-unread-badge"
      className={
        active
          ? 'ml-auto min-w-6 rounded-full bg-brand-600 px-2 py-0.5 text-center text-xs font-semibold text-white tabular-nums'
          : 'ml-auto min-w-6 rounded-full bg-red-600 px-2 py-0.5 text-center text-xs font-semibold text-white tabular-nums'
      }
    >
      {unread > 99 ? '99+' : unread}
      <span className="sr-only"> unread</span>
    </span>
  )
}

import { useAuth } from '@/lib/auth-store'
import { supabase } from '@/lib/supabase'
import { NotificationsBell } from './notifications-bell'
import { NotificationsProvider } from './notifications-provider'

/**
 * The bell for the signed-in header: one line to mount, a new store per signed-in user.
 * onOpenReply: a "New reply" notification opens its conversation.
 */
export function NotificationsMenu({ onOpenReply }: { onOpenReply?: (threadId: string) => void } = {}) {
  const userId = useAuth((s) => s.user?.id)
  if (!userId) return null
  return (
    <NotificationsProvider key={userId} client={supabase}>
      <NotificationsBell onOpenReply={onOpenReply} />
    </NotificationsProvider>
  )
}

import type { ReactNode } from 'react'
import { AppHeader } from '@/components/layouts/app-header'
import { ActivityNavLink } from '@/features/activity/components/activity-nav-link'
import { NotificationsMenu } from '@/features/notifications/components/notifications-menu'
import { WorkspaceSwitcher } from '@/features/workspaces/components/workspace-switcher'

/**
 * The signed-in pages besides the dashboard (settings, billing, do-not-contact, activity, admin): the
 * header with the Activity link (owners and admins) and the notifications bell above the page.
 * Composed here because the header is shared code and these are features; the dashboard composes
 * its own header the same way (routes/dashboard.tsx).
 */
export function SignedInLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <AppHeader leading={<WorkspaceSwitcher />}>
        <ActivityNavLink />
        <NotificationsMenu />
      </AppHeader>
      {children}
    </div>
  )
}

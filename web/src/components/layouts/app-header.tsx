import type { ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { AccountMenu } from '@/components/ui/account-menu'
import { Logo } from '@/components/ui/logo'
import { paths } from '@/config/paths'
import { signOut, useAuth } from '@/lib/auth-store'
import { useProfileIdentity } from '@/lib/profile-identity'

/**
 * Top bar of the signed-in pages: the logo and what follows it (the workspace switcher), the actions
 * it is given (the bell) and the account menu.
 */
export function AppHeader({ children, leading }: { children?: ReactNode; leading?: ReactNode }) {
  const user = useAuth((s) => s.user)
  const navigate = useNavigate()
  const { name, avatarUrl } = useProfileIdentity(user)
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <Logo href={paths.dashboard} className="[&>span]:hidden sm:[&>span]:inline" />
          {leading}
        </div>
        <div className="flex items-center gap-3">
          {children}
          <AccountMenu
            name={name}
            email={user?.email}
            avatarUrl={avatarUrl}
            profileSettingsHref={paths.settings}
            accountSettingsHref={paths.billing}
            onSignOut={async () => {
              await signOut()
              navigate(paths.login, { replace: true })
            }}
          />
        </div>
      </div>
    </header>
  )
}

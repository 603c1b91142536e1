import { lazy, type ReactNode, Suspense, useState } from 'react'
import { Navigate } from 'react-router'
import { FullPageSpinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { useAuth } from '@/lib/auth-store'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { guardView, showsSetup } from './guard-logic'
import { useGuardProfile } from './use-guard-profile'

const OnboardingWizard = lazy(() =>
  import('@/features/onboarding/components/onboarding-wizard').then((m) => ({ default: m.OnboardingWizard })),
)
const SetupModal = lazy(() =>
  import('@/features/setup/components/setup-modal').then((m) => ({ default: m.SetupModal })),
)

/** product.md §2/§4: signed-in only; the onboarding wizard or the setup modal come first when due. */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const user = useAuth((s) => s.user)
  const authLoading = useAuth((s) => s.loading)
  const { loading: profileLoading, profile, patchProfile } = useGuardProfile(user?.id)
  const [setupHidden, setSetupHidden] = useState(false)
  const { can, loading: roleLoading } = useWorkspaceRole()

  const view = guardView({ authLoading, signedIn: Boolean(user), profileLoading, profile })
  if (view === 'loading') return <FullPageSpinner />
  if (view === 'login' || !user) return <Navigate to={paths.login} replace />

  if (view === 'onboarding') {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <OnboardingWizard
          user={user}
          profile={profile}
          // product.md §4: completing the wizard sets the flag locally; the wizard then leaves for checkout.
          onCompleted={() => patchProfile({ onboarding_completed: true })}
        />
      </Suspense>
    )
  }

  return (
    <>
      {children}
      {showsSetup(view, { loading: roleLoading, editWorkspace: can.editWorkspace }) && !setupHidden && (
        <Suspense fallback={null}>
          <SetupModal
            user={user}
            onClose={() => setSetupHidden(true)}
            onFinished={() => {
              patchProfile({ post_onboarding: true })
              setSetupHidden(true)
            }}
          />
        </Suspense>
      )}
    </>
  )
}

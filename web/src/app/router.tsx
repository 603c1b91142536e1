// product.md §2 route table. The public landing pages are in the first bundle; everything else is
// loaded on demand so the landing route stays small.
import type { ComponentType } from 'react'
import { createBrowserRouter, Outlet, type RouteObject, ScrollRestoration } from 'react-router'
import { FullPageSpinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { LandingRoute } from './routes/landing'
import { NotFoundRoute } from './routes/not-found'
import { RouteError } from './routes/route-error'

function RootLayout() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  )
}

/** A lazily loaded page behind the signed-in guard (the guard, too, loads only when needed). */
const guarded = (load: () => Promise<{ default: ComponentType }>) => async () => {
  const [{ default: Page }, { ProtectedRoute }] = await Promise.all([
    load(),
    import('./guards/protected-route'),
  ])
  return {
    element: (
      <ProtectedRoute>
        <Page />
      </ProtectedRoute>
    ),
  }
}

const publicPage = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
})

/** The route tree, shared by the browser router and the build-time prerender (src/prerender.tsx). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: FullPageSpinner,
    children: [
      { path: paths.home, element: <LandingRoute variant="general" /> },
      { path: paths.landing, element: <LandingRoute variant="general" /> },
      { path: paths.fbOffer, element: <LandingRoute variant="fb-offer" /> },
      { path: paths.googleAds, element: <LandingRoute variant="google-ads" /> },
      { path: paths.login, lazy: publicPage(() => import('./routes/login')) },
      { path: paths.resetPassword, lazy: publicPage(() => import('./routes/reset-password')) },
      { path: paths.updatePassword, lazy: publicPage(() => import('./routes/update-password')) },
      { path: paths.dashboard, lazy: guarded(() => import('./routes/dashboard')) },
      // /admin checks the role before the signed-in guard's onboarding steps (routes/admin.tsx).
      { path: paths.admin, lazy: publicPage(() => import('./routes/admin')) },
      { path: paths.settings, lazy: guarded(() => import('./routes/settings')) },
      { path: paths.doNotContact, lazy: guarded(() => import('./routes/do-not-contact')) },
      { path: paths.activity, lazy: guarded(() => import('./routes/activity')) },
      { path: paths.billing, lazy: guarded(() => import('./routes/billing')) },
      { path: paths.members, lazy: guarded(() => import('./routes/members')) },
      { path: paths.workspaceSettings, lazy: guarded(() => import('./routes/workspace-settings')) },
      // public: a signed-out invitee signs in or up on the page itself
      { path: paths.invite, lazy: publicPage(() => import('./routes/invite')) },
      { path: paths.success, lazy: publicPage(() => import('./routes/success')) },
      { path: paths.cancel, lazy: publicPage(() => import('./routes/cancel')) },
      { path: paths.dataDeletion, lazy: publicPage(() => import('./routes/data-deletion')) },
      { path: paths.connectXCallback, lazy: guarded(() => import('./routes/connect-x-callback')) },
      // public: a browser without the customer's session is told that nothing was connected
      {
        path: paths.connectInstagramCallback,
        lazy: publicPage(() => import('./routes/connect-instagram-callback')),
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]

export const createRouter = () => createBrowserRouter(routes)

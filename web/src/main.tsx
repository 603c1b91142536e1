import { StrictMode, startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { App } from './app/App'
import { createRouter } from './app/router'
import { env } from './config/env'
import { authStorageKey, startAuth, useAuth } from './lib/auth-store'
import './index.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
startAuth(authStorageKey(env.supabaseUrl))
const router = createRouter()
const app = (
  <StrictMode>
    <App router={router} />
  </StrictMode>
)

/** Resolves once the router has loaded the first page's lazy route, so hydration renders the page. */
const routerReady = () =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve()
    const stop = router.subscribe((state) => {
      if (!state.initialized) return
      stop()
      resolve()
    })
  })

// The build prerenders / and /login for a signed-out visitor (build/prerender-plugin.ts); an inline
// script drops that markup before the first paint when it does not fit the visit (other address,
// query, stored session). Hydration runs as a transition so it yields to the browser in slices.
if (root.dataset.prerendered === window.location.pathname && !useAuth.getState().loading) {
  void routerReady().then(() =>
    startTransition(() => {
      hydrateRoot(root, app)
    }),
  )
} else {
  root.replaceChildren()
  createRoot(root).render(app)
}

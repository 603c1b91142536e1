// Build-time prerender (build/prerender-plugin.ts): renders a public page for a signed-out
// visitor to HTML, so the browser paints it before any script runs; main.tsx hydrates it.
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router'
import { ToastProvider } from '@/components/ui/toast'
import { routes } from './app/router'
import { env } from './config/env'
import { authStorageKey, useAuth } from './lib/auth-store'

/** Where supabase-js keeps the session: a stored one means the prerendered page does not fit. */
export const sessionStorageKey = authStorageKey(env.supabaseUrl)

/** The HTML inside #root for `path`, as a signed-out visitor's first render produces it. */
export async function render(path: string): Promise<string> {
  // The store starts signed out here (no window): what startAuth() decides for a visitor
  // without a stored session, and the state hydration reads back in the browser.
  if (useAuth.getState().loading) throw new Error('Prerendering expects a signed-out store')
  const handler = createStaticHandler(routes)
  const context = await handler.query(new Request(`http://prerender.invalid${path}`))
  if (context instanceof Response) throw new Error(`Prerendering ${path} answered ${context.status}`)
  if (context.errors) throw new Error(`Prerendering ${path} failed: ${JSON.stringify(context.errors)}`)
  const router = createStaticRouter(handler.dataRoutes, context)
  return renderToString(
    <StrictMode>
      <ToastProvider>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </ToastProvider>
    </StrictMode>,
  )
}

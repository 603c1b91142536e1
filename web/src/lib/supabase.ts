import type { Database } from '@reachflow/db'
import { createClient } from '@supabase/supabase-js'
import { env } from '@/config/env'
import { paths } from '@/config/paths'
import { attachAuthListener } from './auth-state'

/**
 * Pages that X and Meta send back to with their own `?code=`. supabase-js takes any `?code=` for
 * its PKCE sign-in when a code verifier from an earlier sign-up is still stored, and would post it
 * to /auth/v1/token (a 404) instead of leaving it to the page.
 */
const OTHER_SERVICES_CODE_PAGES: readonly string[] = [paths.connectXCallback, paths.dataDeletion]

const returnFromOtherService =
  typeof window !== 'undefined' && OTHER_SERVICES_CODE_PAGES.includes(window.location.pathname)

/**
 * An invitation mailed by Supabase Auth arrives with an implicit session in the fragment, which a
 * PKCE client refuses; the invitation page takes it, and Google's `?code=`, itself
 * (features/workspaces/api/invite-session.ts).
 */
const invitationPage = typeof window !== 'undefined' && window.location.pathname.startsWith('/invite/')

/** Typed by the generated database types (supabase/functions/_shared/database.ts). */
export const supabase = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: !returnFromOtherService && !invitationPage,
    flowType: 'pkce',
  },
})

// The auth store follows this client from the moment it exists (product.md §4 Auth).
attachAuthListener(supabase)

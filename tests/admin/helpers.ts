// The admin function through the gateway as the web app calls it: supabase-js signed in as the
// seeded operator (admin@reachflow.test), a customer, or nobody.
import type { SupabaseClient } from '@supabase/supabase-js'
import { fakeIp } from '../../stack/gateway/test/helpers.ts'
import { client, customer, invoke, type Json, type Result } from '../functions/helpers.ts'

export { client, customer, invoke, type Json, type Result }

export const ADMIN = { email: 'admin@reachflow.test', password: 'admin-password' }

/** The seeded admin, signed in once per test file (Auth limits sign-ins per address). */
export async function signedInAdmin(): Promise<SupabaseClient> {
  const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
  const { error } = await sb.auth.signInWithPassword(ADMIN)
  if (error) throw error
  return sb
}

type Method = 'GET' | 'POST' | 'DELETE'

/** `functions.invoke('admin/<path>')`. */
export const admin = <T = Json>(sb: SupabaseClient, path: string, method: Method = 'GET', body?: unknown) =>
  invoke<T>(sb, `admin/${path}`, method as 'GET' | 'POST' | 'DELETE', body)

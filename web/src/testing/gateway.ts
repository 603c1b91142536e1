// Component tests that talk to the real local gateway (the test stack `npm test` starts): clients
// for a fresh signed-up user and for the service role, which does the set-up a user cannot.
import { createClient, type SupabaseClient } from '@supabase/supabase-js'

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run these tests through \`npm test\`.`)
  return value
}

function gatewayClient(key: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(required('SUPABASE_URL'), key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers },
  })
}

export const serviceClient = () => gatewayClient(required('SUPABASE_SERVICE_ROLE_KEY'))

/** A new user signed in on its own client; a fake client address keeps sign-up rate limits apart. */
export async function signedUpUser(tag: string): Promise<{ client: SupabaseClient; userId: string }> {
  const octet = () => Math.floor(Math.random() * 254) + 1
  const client = gatewayClient(required('SUPABASE_ANON_KEY'), {
    'X-Forwarded-For': `10.${octet()}.${octet()}.${octet()}`,
  })
  const email = `web-${tag}-${crypto.randomUUID().slice(0, 8)}@component.test`
  const { data, error } = await client.auth.signUp({ email, password: 'component-password' })
  if (error || !data.user || !data.session) throw error ?? new Error('sign-up returned no session')
  return { client, userId: data.user.id }
}

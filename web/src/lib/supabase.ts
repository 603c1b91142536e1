import type { Database } from '@shared/database'
import { createClient } from '@supabase/supabase-js'
import { env } from '@/config/env'
import { attachAuthListener } from './auth-store'

/** Typed by the generated database types (supabase/functions/_shared/database.ts). */
export const supabase = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'pkce' },
})

// The auth store follows this client from the moment it exists (product.md §4 Auth).
attachAuthListener(supabase)

import { createClient } from '@supabase/supabase-js'
import { env } from '@/config/env'
import { attachAuthListener } from './auth-store'

export const supabase = createClient(env.supabaseUrl, env.supabaseAnonKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'pkce' },
})

// The auth store follows this client from the moment it exists (spec §4 Auth).
attachAuthListener(supabase)

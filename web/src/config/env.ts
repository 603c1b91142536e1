// Validated once at start-up so a missing variable is one clear message, not a blank page.
const supabaseUrl = import.meta.env.VITE_SUPABASE_URL as string | undefined
const supabaseAnonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined

if (!supabaseUrl || !supabaseAnonKey) {
  throw new Error('VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY must be set (npm start sets them for you).')
}

export const env = { supabaseUrl, supabaseAnonKey }

import type { Database } from '@reachflow/db'
import type { SupabaseClient } from '@supabase/supabase-js'

/** A Supabase client typed by the generated database types (what lib/supabase.ts creates). */
export type Db = SupabaseClient<Database>

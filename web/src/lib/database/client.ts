import type { Database } from '@shared/database'
import type { SupabaseClient } from '@supabase/supabase-js'

/** A Supabase client typed by the generated database types (what lib/supabase.ts creates). */
export type Db = SupabaseClient<Database>

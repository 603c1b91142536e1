import type { SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '../../../../supabase/functions/_shared/database.ts'

/** A Supabase client typed by the generated database types (what lib/supabase.ts creates). */
export type Db = SupabaseClient<Database>

// The database's types for every program (functions, runner, web): what `supabase gen types` writes
// in database.types.ts, plus the two things a generator reading the catalog cannot know, listed
// here by name so they stay few and visible:
// - columns a BEFORE INSERT trigger fills (the owner copied from the parent row, the platform taken
//   from the account), which an insert may therefore leave out;
// - RPC arguments that may be null: every SQL argument is nullable, but the generator types them
//   as required values (only arguments with a default become optional);
// - columns of set-returning RPCs (`returns table (…)`) the SQL can leave null: the generator types
//   every such column as never null;
// - view columns the view's SQL never leaves null: the generator types every view column nullable.
import type { Database as Generated } from './database.types.ts'

export type { Json } from './database.types.ts'

/** Columns a BEFORE INSERT trigger fills, per table. */
interface FilledByTrigger {
  campaigns: 'platform_id'
  inbox_thread_notes: 'workspace_id'
  scraping_campaigns: 'platform_id'
  scraping_campaign_leads: 'user_id'
}

/** RPC arguments the function accepts as null, per function. */
interface NullableArgument {
  admin_set_account_sending: 'p_until'
  admin_set_canary_account: 'p_thread_id'
  assign_thread: 'p_member'
  create_social_account: 'p_proxy_url'
  do_not_contact_entries: 'p_search' | 'p_platform'
  update_social_account: 'p_proxy_url' | 'p_has_chat_passcode' | 'p_daily_message_limit'
}

/** Result columns of set-returning RPCs that can be null, per function. */
interface NullableResultColumn {
  add_do_not_contact: 'error'
  admin_failed_jobs: 'error' | 'failed_at'
  admin_runner_processes: 'cpu' | 'memory' | 'uptime'
  admin_system_hosts: 'cpu_percent' | 'memory_percent' | 'load_average'
  campaign_figures: 'delivery_rate' | 'progress' | 'reply_rate'
  campaign_variant_stats:
    | 'variant_id'
    | 'template'
    | 'first_slot'
    | 'current_slot'
    | 'first_sent_at'
    | 'last_sent_at'
    | 'personalized_sample'
  dashboard_summary: 'messages_sent_change' | 'delivery_rate' | 'delivery_rate_change'
  workspace_member_list: 'full_name'
}

/** View columns that are never null, per view. */
interface NotNullViewColumn {
  lead_people:
    | 'id'
    | 'source'
    | 'campaign_id'
    | 'campaign_name'
    | 'username'
    | 'display_name'
    | 'avatar'
    | 'status'
    | 'last_activity'
    | 'sources'
    | 'campaign_ids'
    | 'source_count'
}

type Optional<T, K extends PropertyKey> = Omit<T, K> & Partial<Pick<T, Extract<K, keyof T>>>
type Nullable<T, K extends PropertyKey> = Omit<T, K> & { [P in Extract<K, keyof T>]: T[P] | null }
type NotNull<T, K extends PropertyKey> = Omit<T, K> & { [P in Extract<K, keyof T>]: NonNullable<T[P]> }

type GeneratedPublic = Generated['public']
type PublicTables = {
  [T in keyof GeneratedPublic['Tables']]: T extends keyof FilledByTrigger
    ? Omit<GeneratedPublic['Tables'][T], 'Insert'> & {
        Insert: Optional<GeneratedPublic['Tables'][T]['Insert'], FilledByTrigger[T]>
      }
    : GeneratedPublic['Tables'][T]
}
type Fn<F extends keyof GeneratedPublic['Functions']> = GeneratedPublic['Functions'][F]
type WithArgs<F extends keyof GeneratedPublic['Functions']> = F extends keyof NullableArgument
  ? Omit<Fn<F>, 'Args'> & { Args: Nullable<Fn<F>['Args'], NullableArgument[F]> }
  : Fn<F>
type PublicFunctions = {
  [F in keyof GeneratedPublic['Functions']]: F extends keyof NullableResultColumn
    ? Omit<WithArgs<F>, 'Returns'> & {
        Returns: Fn<F>['Returns'] extends (infer Row)[] ? Nullable<Row, NullableResultColumn[F]>[] : never
      }
    : WithArgs<F>
}

type PublicViews = {
  [V in keyof GeneratedPublic['Views']]: V extends keyof NotNullViewColumn
    ? Omit<GeneratedPublic['Views'][V], 'Row'> & {
        Row: NotNull<GeneratedPublic['Views'][V]['Row'], NotNullViewColumn[V]>
      }
    : GeneratedPublic['Views'][V]
}

export type Database = Omit<Generated, 'public'> & {
  public: Omit<GeneratedPublic, 'Tables' | 'Views' | 'Functions'> & {
    Tables: PublicTables
    Views: PublicViews
    Functions: PublicFunctions
  }
}

type Public = Database['public']
type Internal = Database['internal']

/** A table's or view's row as the data API returns it. */
export type Tables<T extends keyof (Public['Tables'] & Public['Views'])> = (Public['Tables'] &
  Public['Views'])[T] extends { Row: infer R }
  ? R
  : never
export type TablesInsert<T extends keyof Public['Tables']> = Public['Tables'][T]['Insert']
export type TablesUpdate<T extends keyof Public['Tables']> = Public['Tables'][T]['Update']

/** A client RPC's arguments and result (a `Json` result is parsed with a schema where it is read). */
export type RpcArgs<F extends keyof Public['Functions']> = Public['Functions'][F]['Args']
export type RpcResult<F extends keyof Public['Functions']> = Public['Functions'][F]['Returns']

/** The runner's tables and functions in `internal`, which it reaches over SQL. */
export type InternalTables<T extends keyof Internal['Tables']> = Internal['Tables'][T]['Row']
export type InternalResult<F extends keyof Internal['Functions']> = Internal['Functions'][F]['Returns']

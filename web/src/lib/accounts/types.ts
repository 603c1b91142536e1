import type { Tables } from '@reachflow/db'
import type { AccountLimit as AccountLimitRpc } from '../database/accounts'

/** product.md §3 "Platform", as GET {api}/social-accounts/platforms lists it. */
export type Platform = Pick<Tables<'platforms'>, 'id' | 'name' | 'display_name' | 'is_active' | 'coming_soon'>

/** product.md §3 "Account limit check result" (rpc/check_account_limit; no error: one may be added). */
export type AccountLimit = Omit<AccountLimitRpc, 'error'> & { error?: string }

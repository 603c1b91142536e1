import type { AccountChanges, AccountSaved } from '@reachflow/domain'
import { callApi } from '@/lib/api-client'

export type { AccountChanges }

/** PATCH {api}/social-accounts/{id}: new details, re-sealed and re-tested; nothing secret comes back. */
export async function updateAccount(id: string, changes: AccountChanges): Promise<AccountSaved> {
  return callApi('PATCH /social-accounts/:id', { params: { id }, body: changes })
}

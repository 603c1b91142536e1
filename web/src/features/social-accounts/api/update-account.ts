import { callApi } from '@/lib/api-client'

export interface AccountChanges {
  authData?: { cookies?: unknown; chatPasscode?: string | null; password?: string; secretKey?: string | null }
  /** null removes the proxy; absent keeps it. */
  proxyUrl?: string | null
  dailyMessageLimit?: number
}

/** PATCH {api}/social-accounts/{id}: new details, re-sealed and re-tested; nothing secret comes back. */
export async function updateAccount(
  id: string,
  changes: AccountChanges,
): Promise<{ id: string; status: string }> {
  return callApi(`social-accounts/${id}`, { method: 'PATCH', body: changes })
}

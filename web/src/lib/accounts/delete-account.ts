import { callApi } from '@/lib/api-client'

export const ACCOUNT_DELETED = 'Account deleted successfully!'

/** DELETE {api}/social-accounts/{id}: the account, its credentials and its waiting jobs. */
export async function deleteAccount(id: string): Promise<void> {
  await callApi('DELETE /social-accounts/:id', { params: { id } })
}

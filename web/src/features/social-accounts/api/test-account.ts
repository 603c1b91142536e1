import { callApi } from '@/lib/api-client'

export const ACCOUNT_TESTED = 'Account tested successfully!'

/** POST {api}/social-accounts/{id}/test: X is checked at once, Instagram is queued for the runner. */
export async function testAccount(id: string): Promise<string> {
  const result = await callApi('POST /social-accounts/:id/test', { params: { id } })
  return result?.message ?? ACCOUNT_TESTED
}

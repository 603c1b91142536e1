// The X API client of the official X routes, and revoking an official account's grant when the
// customer disconnects it (kept apart from the connect routes so the account routes can use it).
import {
  DEFAULT_X_API_BASE_URL,
  type XApiClient,
  type XOfficialCredentials,
  xTokenCall,
} from '@reachflow/domain'
import { decryptSecret, keyringFromEnv } from '../_shared/crypto.ts'
import type { ApiDeps } from './deps.ts'

export function xApiClientOf(deps: ApiDeps): XApiClient {
  return { apiBaseUrl: deps.env('X_API_BASE_URL')?.trim() || DEFAULT_X_API_BASE_URL, fetch: deps.fetch }
}

/**
 * Disconnecting an official account revokes its grant at X first, so the app's access ends with
 * it. X not answering does not keep the customer's account: the delete goes on and says so.
 */
export async function revokeOfficialX(deps: ApiDeps, sealedCredentials: string): Promise<boolean> {
  const credentials = JSON.parse(
    await decryptSecret(sealedCredentials, await keyringFromEnv(deps.env)),
  ) as XOfficialCredentials
  const app = { clientId: credentials.clientId, clientSecret: credentials.clientSecret }
  const client = xApiClientOf(deps)
  try {
    const results = await Promise.all(
      [credentials.refreshToken, credentials.accessToken].map((token) =>
        xTokenCall(client, app, '/2/oauth2/revoke', { token }),
      ),
    )
    return results.every((r) => r.ok)
  } catch {
    return false
  }
}

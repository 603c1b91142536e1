// Meta's calls to the app's business login callbacks, as Meta makes them: a form POST of
// `signed_request`, the base64url HMAC-SHA256 (app secret) of the base64url JSON payload, then a
// dot, then that payload {algorithm: "HMAC-SHA256", issued_at, user_id}. Deauthorize follows the
// person removing the app in Instagram's settings; data deletion follows their request to have the
// app's data deleted, and Meta shows them the status URL and confirmation code the app answers.
import { createHmac } from 'node:crypto'
import type { IgAccount, MetaWorld } from './world.ts'

export type AppCallback = 'deauthorize' | 'data_deletion'

export function signedRequest(secret: string, payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
  return `${createHmac('sha256', secret).update(body).digest('base64url')}.${body}`
}

/** Calls the app's callback for this account; what it answered (null status: not set or unreachable). */
export async function callAppCallback(
  world: MetaWorld,
  kind: AppCallback,
  account: IgAccount,
): Promise<{ status: number | null; body: unknown }> {
  const { app } = world.state
  const url = kind === 'deauthorize' ? app.deauthorizeUrl : app.dataDeletionUrl
  if (!url) return { status: null, body: `No ${kind} callback URL is set for the app` }
  const signed = signedRequest(app.appSecret, {
    algorithm: 'HMAC-SHA256',
    issued_at: Math.floor(world.now() / 1000),
    user_id: account.id,
  })
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ signed_request: signed }).toString(),
      signal: AbortSignal.timeout(20_000),
    })
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {}
    return { status: response.status, body }
  } catch (error) {
    return { status: null, body: String(error) }
  }
}

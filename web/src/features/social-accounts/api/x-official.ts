import { callApi } from '@/lib/api-client'
import { browserKey } from '@/lib/browser-key'

/** The callback URL the customer registers in their X app, and the scopes Reachflow asks X for. */
export interface XOfficialSetup {
  redirectUri: string
  scopes: string[]
}

export const getXOfficialSetup = () => callApi<XOfficialSetup>('social-accounts/x-official/setup')

/**
 * Checks the app's keys with X and returns X's authorize page for this connect (one use, 10 minutes,
 * finished only in this browser).
 */
export const startXOfficial = (keys: { clientId: string; clientSecret: string }) =>
  callApi<{ authorizeUrl: string }>('social-accounts/x-official/start', {
    method: 'POST',
    body: { ...keys, browserKey: browserKey() },
  })

/** Hands X's answer (code and state, or error) and this browser's key to the api, which creates the account. */
export const finishXOfficial = (answer: { state: string; code?: string; error?: string }) =>
  callApi<{ id: string; username: string; reconnected: boolean }>('social-accounts/x-official/callback', {
    method: 'POST',
    body: { ...answer, browserKey: browserKey() },
  })

import { callApi } from '@/lib/api-client'
import { browserKey } from '@/lib/browser-key'

export const getXOfficialSetup = () => callApi('GET /social-accounts/x-official/setup')

/**
 * Checks the app's keys with X and returns X's authorize page for this connect (one use, 10 minutes,
 * finished only in this browser).
 */
export const startXOfficial = (keys: { clientId: string; clientSecret: string }) =>
  callApi('POST /social-accounts/x-official/start', {
    body: { ...keys, browserKey: browserKey() },
  })

/** Hands X's answer (code and state, or error) and this browser's key to the api, which creates the account. */
export const finishXOfficial = (answer: { state: string; code?: string; error?: string }) =>
  callApi('POST /social-accounts/x-official/callback', {
    body: { ...answer, browserKey: browserKey() },
  })

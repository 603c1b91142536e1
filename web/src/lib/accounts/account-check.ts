import { supabase } from '@/lib/supabase'

/**
 * The outcome of a new (or edited) account's test by the runner: connecting says
 * "connected" only once the runner has signed in (and, on X, opened X Chat with the passcode).
 */
export type AccountCheckOutcome =
  | { kind: 'active' }
  | { kind: 'failed'; status: string; reason: string; fix: string }
  | { kind: 'slow' }

export const CHECK_POLL_MS = 1_500
/** After this the modal stops waiting (the test goes on; a notification tells the outcome). */
export const CHECK_PATIENCE_MS = 150_000

/**
 * Where the customer changes what failed: the account card's Edit account, or the connect
 * dialogs, which offer "Change details and retry" (the account is removed and the form comes back).
 */
export type FixPlace = 'edit account' | 'change details'

/** One fix, worded for each place it can be made. */
function said(place: FixPlace, inEdit: string, inRetry: string): string {
  return place === 'edit account'
    ? inEdit
    : `Choose “Change details and retry”, ${inRetry}, then connect again.`
}

/** What to do about a failed test, inside Reachflow, from the reason the runner recorded. */
export function fixFor(reason: string, platform: string, place: FixPlace = 'edit account'): string {
  if (/passcode/i.test(reason))
    return said(
      place,
      'Enter your X Chat passcode in Edit account, then test again.',
      'enter your X Chat passcode',
    )
  if (/proxy/i.test(reason))
    return said(
      place,
      'Fix the proxy in Edit account (or remove it), then test again.',
      'fix the proxy (or remove it)',
    )
  if (
    platform === 'twitter' &&
    /cookie|signed out|log ?in|session|expired|unauthenticated|authenticate/i.test(reason)
  )
    return said(
      place,
      'Paste fresh cookies from x.com in Edit account, then test again.',
      'paste fresh cookies from x.com',
    )
  if (/password|credentials|two-factor|2fa|code/i.test(reason))
    return said(
      place,
      'Check the password and 2FA key in Edit account, then test again.',
      'check the password and 2FA key',
    )
  if (/locked|suspended|challenge|checkpoint|verify/i.test(reason))
    return `Open ${platform === 'twitter' ? 'x.com' : 'instagram.com'} in your browser, clear the check it shows, then test again.`
  return said(place, 'Update the account in Edit account, then test again.', 'correct the details')
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason ?? new DOMException('Aborted', 'AbortError'))
    })
  })

/** Polls the account until the runner's test has an outcome (or patience runs out). */
export async function waitForAccountCheck(
  accountId: string,
  platform: string,
  {
    signal,
    place = 'edit account',
    everyMs = CHECK_POLL_MS,
    patienceMs = CHECK_PATIENCE_MS,
  }: {
    signal?: AbortSignal
    /** Where the dialog showing the outcome lets the customer change the details. */
    place?: FixPlace
    everyMs?: number
    patienceMs?: number
  } = {},
): Promise<AccountCheckOutcome> {
  const polls = Math.ceil(patienceMs / everyMs)
  for (let i = 0; i < polls; i++) {
    const { data, error } = await supabase
      .from('social_accounts')
      .select('status, flag_reason')
      .eq('id', accountId)
      .maybeSingle()
    if (!error && data) {
      if (data.status === 'active') return { kind: 'active' }
      if (data.status !== 'testing') {
        const reason = data.flag_reason ?? `The account is ${data.status}.`
        return { kind: 'failed', status: data.status, reason, fix: fixFor(reason, platform, place) }
      }
    }
    if (!error && !data)
      return { kind: 'failed', status: 'deleted', reason: 'The account was deleted.', fix: 'Add it again.' }
    await sleep(everyMs, signal)
  }
  return { kind: 'slow' }
}

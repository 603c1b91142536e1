import { useCallback, useEffect, useRef, useState } from 'react'
import { type AccountCheckOutcome, type FixPlace, waitForAccountCheck } from '@/lib/accounts/account-check'
import type { CheckState } from './account-check-panel'

/**
 * The runner's test of an account as the connect dialogs show it (wizard, setup modal, edit):
 * `follow` polls until the test has an outcome; leaving the dialog stops the polling. `place` is
 * where that dialog lets the customer change the details, so the fix it shows names that control.
 */
export function useAccountCheck(place: FixPlace) {
  const [state, setState] = useState<CheckState | null>(null)
  const stopWaiting = useRef<AbortController | null>(null)
  useEffect(() => () => stopWaiting.current?.abort(), [])

  const follow = useCallback(
    async (accountId: string, platform: string): Promise<AccountCheckOutcome | null> => {
      setState({ phase: 'checking', since: Date.now() })
      const controller = new AbortController()
      stopWaiting.current = controller
      try {
        const outcome = await waitForAccountCheck(accountId, platform, { signal: controller.signal, place })
        setState({ phase: 'done', outcome })
        return outcome
      } catch {
        return null // the dialog closed while waiting: the account card shows the result
      }
    },
    [place],
  )

  return { state, setState, follow }
}

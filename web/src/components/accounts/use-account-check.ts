import { useCallback, useEffect, useRef, useState } from 'react'
import { type AccountCheckOutcome, waitForAccountCheck } from '@/lib/accounts/account-check'
import type { CheckState } from './account-check-panel'

/**
 * The runner's test of an account as the connect dialogs show it (wizard, setup modal, edit):
 * `follow` polls until the test has an outcome; leaving the dialog stops the polling.
 */
export function useAccountCheck() {
  const [state, setState] = useState<CheckState | null>(null)
  const stopWaiting = useRef<AbortController | null>(null)
  useEffect(() => () => stopWaiting.current?.abort(), [])

  const follow = useCallback(
    async (accountId: string, platform: string): Promise<AccountCheckOutcome | null> => {
      setState({ phase: 'checking', since: Date.now() })
      const controller = new AbortController()
      stopWaiting.current = controller
      try {
        const outcome = await waitForAccountCheck(accountId, platform, { signal: controller.signal })
        setState({ phase: 'done', outcome })
        return outcome
      } catch {
        return null // the dialog closed while waiting: the account card shows the result
      }
    },
    [],
  )

  return { state, setState, follow }
}

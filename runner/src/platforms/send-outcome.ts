// What a send that stopped with an error amounts to, the same on every platform. Once send was
// pressed nothing proves the message did not go out: uncertain, whatever stopped it (a changed page
// included, carried along for the site-change handling). Before it, a changed page is the site's
// doing and goes to the job's site-change handling; a page that ran out of time is the machine's or
// the network's (marked, so the caller holds nothing against the account); anything else is a
// plain failure.
import { outOfTime } from '../browser/deadline.ts'
import { LayoutChangedError } from './layout.ts'
import { type SendResult, type SendState, StopSignalError } from './types.ts'

export function sendErrorOutcome(error: unknown, state: SendState): SendResult {
  state.abandoned = true
  const reason = error instanceof Error ? error.message : String(error)
  const signal = error instanceof StopSignalError ? { signal: error.signal } : {}
  if (state.pressedSend)
    return {
      status: 'uncertain',
      threadId: state.threadId,
      reason,
      ...signal,
      ...(error instanceof LayoutChangedError ? { siteChange: error } : {}),
    }
  if (error instanceof LayoutChangedError) throw error
  return {
    status: 'failed',
    threadId: state.threadId,
    reason,
    ...signal,
    ...(outOfTime(error) ? { outOfTime: true as const } : {}),
  }
}

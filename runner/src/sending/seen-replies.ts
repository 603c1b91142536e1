// What the other side wrote just before a DM, as the send found the thread. An inbox read skips a
// thread whose last message is a campaign DM (inbox/read-plan.ts), so a message that came in after
// the last read and before the DM would be read by nobody: the send already read the thread's rows
// to confirm its own message, and what is new among them is recorded here as the read would
// (the lead replied, the customer told, opt-outs). A side task of a DM that went out: a failure is
// logged and the DM stays sent.
import { readWindow } from '../inbox/read-replies.ts'
import { recordReply } from '../inbox/replies.ts'
import { serviceOf } from '../log.ts'
import type { SendResult } from '../platforms/types.ts'
import type { EngineDeps } from './engine.ts'

export async function recordSeenReplies(
  deps: EngineDeps,
  peerUsername: string,
  result: Extract<SendResult, { status: 'sent' }>,
): Promise<number> {
  const { db, account } = deps
  if (!result.seen?.some((m) => m.direction === 'incoming')) return 0
  try {
    const { since } = await readWindow(db, account.id)
    const incoming = result.seen.filter(
      (m) => m.direction === 'incoming' && (m.at === null || Date.parse(m.at) > since.getTime()),
    )
    if (incoming.length === 0) return 0
    const outcome = await recordReply(db, {
      accountId: account.id,
      userId: account.user_id,
      platform: account.platform,
      peerUsername,
      messages: incoming,
    })
    return outcome.leadsReplied
  } catch (error) {
    await deps.log.warn(
      serviceOf(account.platform),
      `@${account.username}: recording what @${peerUsername} wrote before the DM failed: ${(error as Error).message}`,
      { accountId: account.id },
    )
    return 0
  }
}

// Campaign ticks for tests whose subject comes after the first DMs (replies, follow-ups), not the
// sending itself: those need every lead messaged, however the machine's load spreads the sends.

import { campaignTick, type TickResult } from '../../src/jobs/campaign-tick.ts'
import type { JobContext } from '../../src/jobs/context.ts'

/**
 * Ticks the campaign until `count` DMs are proven sent, at most `maxTicks` times. A loaded machine
 * may defer a DM whose page ran out of time to the next tick, or leave one uncertain for the next
 * tick to settle from the thread; both are the runner behaving as designed, and the following
 * tick sends or settles it. Fails with every tick's whole result (its note says why a tick stopped).
 */
export async function tickUntilSent(
  context: () => JobContext,
  ids: { campaignId: string; accountId: string },
  count: number,
  maxTicks = 4,
): Promise<TickResult[]> {
  const results: TickResult[] = []
  let proven = 0
  while (proven < count && results.length < maxTicks) {
    const result = await campaignTick(context(), ids)
    results.push(result)
    proven += (result.sent ?? 0) + (result.settledSent ?? 0)
    // a tick that neither sent nor left a DM for the next one: another tick would do the same
    if (
      (result.sent ?? 0) + (result.settledSent ?? 0) + (result.deferred ?? 0) + (result.uncertain ?? 0) ===
      0
    )
      break
  }
  if (proven !== count)
    throw new Error(
      `Expected ${count} DMs proven sent, got ${proven} in ${results.length} tick(s): ${JSON.stringify(results)}`,
    )
  return results
}

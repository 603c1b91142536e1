// X Chat dates messages and inbox rows only with a text label ("now", "5m", "10:09 AM",
// "Yesterday"), never a machine-readable time. A label read at a known moment gives an estimate:
// good to the minute for today's labels, to the day for "Yesterday", nothing for older ones.
import { regexOf } from '../facts.ts'
import type { XFacts } from './facts.ts'

const DAY_MS = 86_400_000
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: DAY_MS }
/** A clock label later than the read by more than this is yesterday's (clocks differ a little). */
const CLOCK_SKEW_MS = 5 * 60_000

/** When a message labelled so was written, as read at `readAt`; null when the label does not say. */
export function timeOfLabel(facts: XFacts, label: string, readAt: Date): string | null {
  const { timeLabels } = facts.texts
  const text = label.trim()
  if (regexOf(timeLabels.now).test(text)) return readAt.toISOString()
  const ago = regexOf(timeLabels.ago).exec(text)
  if (ago?.[1] && ago[2])
    return new Date(readAt.getTime() - Number(ago[1]) * (UNIT_MS[ago[2].toLowerCase()] ?? 0)).toISOString()
  const clock = regexOf(timeLabels.clock).exec(text)
  if (clock?.[1] && clock[2] && clock[3]) {
    const hour = (Number(clock[1]) % 12) + (clock[3].toUpperCase() === 'PM' ? 12 : 0)
    const at = new Date(readAt)
    at.setHours(hour, Number(clock[2]), 0, 0)
    if (at.getTime() > readAt.getTime() + CLOCK_SKEW_MS) at.setDate(at.getDate() - 1)
    return at.toISOString()
  }
  if (regexOf(timeLabels.yesterday).test(text)) return new Date(readAt.getTime() - DAY_MS).toISOString()
  return null
}

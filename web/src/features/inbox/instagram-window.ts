// Instagram's answer window for a business, in words for an official Instagram thread: a normal
// message within 24 hours of the person's last message, one sent with the human-agent tag within
// 7 days, nothing after (the database refuses it too: public.queue_inbox_reply).
const HOUR = 3_600_000
const STANDARD_MS = 24 * HOUR
const HUMAN_AGENT_MS = 7 * 24 * HOUR

export interface AnswerWindow {
  state: 'standard' | 'human_agent' | 'closed'
  /** What the thread view shows above the answer box. */
  text: string
}

function formats(timeZone: string | undefined) {
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone })
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone })
  const dayKey = new Intl.DateTimeFormat('en-CA', { dateStyle: 'short', timeZone })
  return {
    day: (at: Date) => day.format(at),
    /** "14:05" today, "28 Nov, 14:05" another day. */
    moment: (at: Date, now: Date) =>
      dayKey.format(at) === dayKey.format(now) ? time.format(at) : `${day.format(at)}, ${time.format(at)}`,
  }
}

export function instagramWindow(
  peer: string,
  lastIncomingAt: string | null,
  now: Date,
  timeZone?: string,
): AnswerWindow {
  const f = formats(timeZone)
  if (!lastIncomingAt)
    return {
      state: 'closed',
      text: `Instagram window closed: @${peer} has not written to you yet, and Instagram lets a business answer only people who wrote to it.`,
    }
  const last = new Date(lastIncomingAt)
  const standardEnd = new Date(last.getTime() + STANDARD_MS)
  const tagEnd = new Date(last.getTime() + HUMAN_AGENT_MS)
  if (now < standardEnd)
    return {
      state: 'standard',
      text: `Instagram window: a normal answer until ${f.moment(standardEnd, now)}, with the human-agent tag until ${f.day(tagEnd)}`,
    }
  if (now < tagEnd)
    return {
      state: 'human_agent',
      text: `Instagram window: 24 hours have passed, so your answer goes with the human-agent tag, until ${f.moment(tagEnd, now)}`,
    }
  return {
    state: 'closed',
    text: `Instagram window closed: @${peer} last wrote on ${f.day(last)}, more than 7 days ago. Instagram allows an answer only within 7 days of the person's last message.`,
  }
}

import type { CampaignWait } from './api/get-campaign-waits'

function whoseCap(wait: CampaignWait): string {
  const account = `@${wait.accountUsername}`
  switch (wait.cause) {
    case 'warmup':
      return `${account} reached today's warm-up limit (${wait.cap})`
    case 'recovering':
      return `${account} reached today's reduced limit (${wait.cap}) while it recovers from a platform warning`
    case 'account':
      return `${account} reached its daily limit (${wait.cap})`
    case 'platform':
      return `${account} reached the platform's daily ceiling (${wait.cap})`
    case 'campaign':
      return `this campaign reached its daily limit (${wait.cap})`
  }
}

const DAY_MS = 86_400_000

/** "today at 09:00", "tomorrow at 09:00", "on Monday at 09:00" or "on 30 Mar at 09:00", in `timeZone`. */
export function resumeWhen(at: Date, now: Date, timeZone?: string): string {
  const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(d)
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(at)
  const daysAhead = Math.round((Date.parse(day(at)) - Date.parse(day(now))) / DAY_MS)
  if (daysAhead <= 0) return `today at ${time}`
  if (daysAhead === 1) return `tomorrow at ${time}`
  const date =
    daysAhead < 7
      ? new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long' }).format(at)
      : new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short' }).format(at)
  return `on ${date} at ${time}`
}

/** What a campaign waiting on a cap says, e.g. "Waiting: @acct reached today's warm-up limit (10). …". */
export function waitSentence(wait: CampaignWait, now: Date, timeZone?: string): string {
  const resumes = wait.resumesAt
    ? `Sending resumes ${resumeWhen(new Date(wait.resumesAt), now, timeZone)}.`
    : 'Sending resumes when its schedule next opens.'
  return `Waiting: ${whoseCap(wait)}. ${resumes}`
}

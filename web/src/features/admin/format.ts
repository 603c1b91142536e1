// How the admin tab writes numbers, durations and times.

const UNITS: [number, string][] = [
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'm'],
  [1, 's'],
]

/** 3d 4h, 2h 5m, 4m 10s, 45s: the largest unit and the one below it (left out when zero). */
export function formatUptime(totalSeconds: number): string {
  let rest = Math.max(0, Math.floor(totalSeconds))
  const counts = UNITS.map(([size, unit]) => {
    const count = Math.floor(rest / size)
    rest -= count * size
    return { count, unit }
  })
  const first = counts.findIndex((c) => c.count > 0)
  if (first < 0) return '0s'
  return counts
    .slice(first, first + 2)
    .filter((c) => c.count > 0)
    .map((c) => `${c.count}${c.unit}`)
    .join(' ')
}

const dateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
})
const date = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
const time = new Intl.DateTimeFormat('en-US', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
})

const valid = (value: string | null | undefined) => (value ? new Date(value) : null)

export const formatDateTime = (value: string | null | undefined, empty = '—') => {
  const d = valid(value)
  return d && !Number.isNaN(d.getTime()) ? dateTime.format(d) : empty
}

export const formatDate = (value: string | null | undefined, empty = '—') => {
  const d = valid(value)
  return d && !Number.isNaN(d.getTime()) ? date.format(d) : empty
}

const dayAndMinute = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
})

/**
 * A log line's stamp: the time to the second for today's lines, the day and minute for older ones
 * (a bare time on a line from last week reads as today). Both fit the same monospace column.
 */
export const formatLogStamp = (value: string | null | undefined, now = new Date()) => {
  const d = valid(value)
  if (!d || Number.isNaN(d.getTime())) return ''
  return d.toDateString() === now.toDateString() ? time.format(d) : dayAndMinute.format(d).replace(',', '')
}

export const formatNumber = (value: number) => new Intl.NumberFormat('en-US').format(value)

/** 12.5% (one decimal at most). */
export const formatPercent = (value: number) => `${Math.round(value * 10) / 10}%`

/** 'past_due' → 'Past due'. */
export const humanize = (value: string) => {
  const words = value.replace(/[_.-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** The last 8 characters of a job id, as the Retries table shows it. */
export const shortId = (id: string) => id.slice(-8)

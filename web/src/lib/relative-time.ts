// product.md §9: under 60 s 'Just now', then minutes, hours, days ago.
const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'} ago`

/** How long ago `date` was, relative to `now` (a clock in the future also reads 'Just now'). */
export function relativeTime(date: Date | string | number, now: Date | number = Date.now()): string {
  const then = new Date(date).getTime()
  if (Number.isNaN(then)) return ''
  const seconds = Math.floor((new Date(now).getTime() - then) / 1000)
  if (seconds < MINUTE) return 'Just now'
  if (seconds < HOUR) return plural(Math.floor(seconds / MINUTE), 'minute')
  if (seconds < DAY) return plural(Math.floor(seconds / HOUR), 'hour')
  return plural(Math.floor(seconds / DAY), 'day')
}

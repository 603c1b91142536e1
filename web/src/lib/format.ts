// Number and date formats the dashboard shares (product.md §9 "Lists and derived numbers").
const integer = new Intl.NumberFormat('en-US')

export const formatCount = (value: number | null | undefined): string => integer.format(value ?? 0)

/** A percentage with `digits` decimals; 0 when the denominator is 0. */
export function percentOf(part: number, whole: number, digits = 0): number {
  if (!whole) return 0
  const factor = 10 ** digits
  return Math.round((part / whole) * 100 * factor) / factor
}

export const formatPercent = (value: number | null | undefined, digits = 0): string =>
  `${(value ?? 0).toFixed(digits)}%`

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })
const dateOnly = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' })

export const formatDateTime = (value: string | null | undefined): string =>
  value ? dateTime.format(new Date(value)) : '—'

export const formatDate = (value: string | null | undefined): string =>
  value ? dateOnly.format(new Date(value.length === 10 ? `${value}T12:00:00` : value)) : '—'

/** "1 day", "3 days", "1,200 leads": a count with its noun in the right number. */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`
}

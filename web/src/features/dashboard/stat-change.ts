// product.md §2: each stat card shows a change; one starting with + is green, 0 is hidden, anything else
// is red. The figures come from rpc/dashboard_summary: this week against the 7 days before.

export type ChangeTone = 'up' | 'down' | 'hidden'

/** How a change text is shown. */
export function changeTone(change: string | null | undefined): ChangeTone {
  const text = (change ?? '').trim()
  if (text === '' || /^[+-]?0+(\.0+)?%?(\s|$)/.test(text)) return 'hidden'
  return text.startsWith('+') ? 'up' : 'down'
}

/** A signed change text: '+12.5%', '-3%', '+2', or '0' (hidden) when there is no change or no baseline. */
export function formatChange(value: number | null | undefined, unit: '%' | '' = ''): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0) return '0'
  const rounded = Math.round(value * 10) / 10
  if (rounded === 0) return '0'
  return `${rounded > 0 ? '+' : ''}${rounded}${unit}`
}

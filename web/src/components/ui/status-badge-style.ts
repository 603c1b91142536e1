// product.md §4 "Status badge colours": which colour, icon and label a status string gets.
export type BadgeTone = 'green' | 'yellow' | 'red' | 'grey'
export type BadgeIcon = 'check' | 'running' | 'alert' | 'cross' | 'pause' | 'clock'

export interface BadgeStyle {
  tone: BadgeTone
  icon: BadgeIcon
  label: string
}

const known: Record<string, BadgeStyle> = {
  active: { tone: 'green', icon: 'check', label: 'Active' },
  success: { tone: 'green', icon: 'check', label: 'Success' },
  running: { tone: 'green', icon: 'running', label: 'Running' },
  completed: { tone: 'green', icon: 'check', label: 'Completed' },
  warning: { tone: 'yellow', icon: 'alert', label: 'Warning' },
  paused: { tone: 'yellow', icon: 'pause', label: 'Paused' },
  error: { tone: 'red', icon: 'alert', label: 'Error' },
  failed: { tone: 'red', icon: 'cross', label: 'Failed' },
  inactive: { tone: 'red', icon: 'cross', label: 'Inactive' },
  pending: { tone: 'grey', icon: 'clock', label: 'Pending' },
}

const unknown: BadgeStyle = { tone: 'grey', icon: 'clock', label: 'Unknown' }

/** Case-insensitive; anything product.md §4 does not name is grey with a clock and reads 'Unknown'. */
export function badgeStyle(status: string | null | undefined): BadgeStyle {
  return known[(status ?? '').trim().toLowerCase()] ?? unknown
}

// The Prefer header (comma-joined, possibly repeated): return, count, resolution, missing, tx,
// handling, max-affected. Unknown preferences are ignored unless handling=strict (PGRST122).
import { RestError } from './errors.ts'
import type { CountMode } from './sql/statements.ts'

export interface Preferences {
  return?: 'minimal' | 'representation' | 'headers-only'
  count?: CountMode
  resolution?: 'merge-duplicates' | 'ignore-duplicates'
  missingDefault: boolean
  tx?: 'commit' | 'rollback'
  strict: boolean
  maxAffected?: number
  /** The preferences honoured, for the Preference-Applied header. */
  applied: string[]
}

const ACCEPTED: Record<string, string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  tx: ['commit', 'rollback'],
  handling: ['strict', 'lenient'],
}

export function parsePrefer(header: string | string[] | undefined): Preferences {
  // Most reads send no Prefer header at all.
  if (header === undefined) return { missingDefault: false, strict: false, applied: [] }
  const raw = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  const prefs: Preferences = { missingDefault: false, strict: false, applied: [] }
  const invalid: string[] = []
  for (const item of raw) {
    const [key = '', value = ''] = item.split('=', 2).map((s) => s.trim())
    if (key === 'max-affected' && /^\d+$/.test(value)) {
      prefs.maxAffected = Number(value)
      continue
    }
    if (!ACCEPTED[key]?.includes(value)) {
      invalid.push(item)
      continue
    }
    if (key === 'return') prefs.return = value as Preferences['return']
    else if (key === 'count') prefs.count = value as CountMode
    else if (key === 'resolution') prefs.resolution = value as Preferences['resolution']
    else if (key === 'missing') prefs.missingDefault = value === 'default'
    else if (key === 'tx') prefs.tx = value as Preferences['tx']
    else if (key === 'handling') prefs.strict = value === 'strict'
    prefs.applied.push(`${key}=${value}`)
  }
  if (prefs.strict && invalid.length > 0) {
    throw new RestError(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${invalid.join(', ')}`,
    )
  }
  return prefs
}

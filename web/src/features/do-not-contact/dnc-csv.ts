// The do-not-contact list as CSV. Import: a file from anywhere (our own export, a spreadsheet, a
// CRM): a header row naming the username, platform and note columns, or none (then the first
// column is the username, the second the platform); usernames as @name or profile links. Every row
// comes back with what will happen to it, so the preview shows bad rows with their reason and the
// customer can download them to fix. Export: the same columns, through the shared CSV encoder
// (`@reachflow/domain` csv.ts), which defuses formulas after any separator a spreadsheet may split on.
import { csvDocument } from '@reachflow/domain'
import type { DncEntry, DncPlatform } from './api/types'

export interface ParsedRow {
  /** The row's line in the file (1 = the first line), as a spreadsheet numbers it. */
  line: number
  username: string
  platform: DncPlatform | null
  reason: string
  /** What is wrong with the row (it is not imported), or null. */
  error: string | null
  /** The same person appears on an earlier row (it is merged into that one). */
  duplicateOf: number | null
  /** The row as it was in the file, for the download of rows that need fixing. */
  cells: string[]
}

export interface ParsedFile {
  rows: ParsedRow[]
  header: string[] | null
  /** Why nothing can be read from the file at all, or null. */
  problem: string | null
}

export const MAX_IMPORT_BYTES = 2_000_000
export const MAX_IMPORT_ROWS = 10_000

/** RFC 4180 with the usual leniencies: quoted fields with "" and newlines, CRLF or LF, a BOM. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  // a file saved by a European spreadsheet separates with ; (its header has no comma)
  const firstLine = text.slice(i, text.search(/\r?\n|$/))
  const separator = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ','
  for (; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"' && field === '') quoted = true
    else if (char === separator) {
      row.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += char
  }
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows
}

const USERNAME_COLUMNS = ['username', 'handle', 'user', 'screen_name', 'account', 'name', 'profile', 'url']
const PLATFORM_COLUMNS = ['platform', 'network', 'site', 'channel']
const REASON_COLUMNS = ['reason', 'note', 'notes', 'comment']

const column = (header: string[], names: string[]) => {
  for (const name of names) {
    const index = header.indexOf(name)
    if (index >= 0) return index
  }
  return -1
}

/** A cell our own export (or another formula-safe one) prefixed with ' is read back as written. */
function unguard(cell: string): string {
  const trimmed = cell.trim()
  return /^'[=+\-@\t\r]/.test(trimmed) ? trimmed.slice(1) : trimmed
}

export function readPlatform(value: string): DncPlatform | null | 'unknown' {
  const name = value.trim().toLowerCase()
  if (name === '') return null
  if (name === 'x' || name === 'twitter' || name === 'x (twitter)') return 'twitter'
  if (name === 'instagram' || name === 'ig') return 'instagram'
  return 'unknown'
}

/** @name, name, or a profile link (x.com, twitter.com, instagram.com) as the username and its platform. */
export function readUsername(value: string): { username: string; platform: DncPlatform | null } {
  const text = value.trim()
  const link = /^(?:https?:\/\/)?(?:www\.|mobile\.)?(x|twitter|instagram)\.com\/@?([^/?#\s]+)/i.exec(text)
  if (link?.[1] && link[2])
    return { username: link[2], platform: link[1].toLowerCase() === 'instagram' ? 'instagram' : 'twitter' }
  return { username: text.replace(/^@/, ''), platform: null }
}

/** The same rules the database applies (add_do_not_contact), said before anything is sent. */
export function usernameProblem(username: string, platform: DncPlatform): string | null {
  if (username === '') return 'The username is empty.'
  if (platform === 'twitter' && !/^[A-Za-z0-9_]{1,15}$/.test(username))
    return `"${username.slice(0, 40)}" is not an X username (1-15 letters, digits or _).`
  if (platform === 'instagram' && !/^[A-Za-z0-9._]{1,30}$/.test(username))
    return `"${username.slice(0, 40)}" is not an Instagram username (1-30 letters, digits, . or _).`
  return null
}

/**
 * Reads an import file. Rows without a platform take `fallbackPlatform` (null: they need one).
 * Repeats of a person (same platform, any case) are marked as merged into their first row.
 */
export function readImport(text: string, fallbackPlatform: DncPlatform | null): ParsedFile {
  const table = parseCsv(text).filter((cells) => cells.some((c) => c.trim() !== ''))
  if (table.length === 0) return { rows: [], header: null, problem: 'The file has no rows.' }
  const first = (table[0] ?? []).map((c) => c.trim().toLowerCase())
  const hasHeader = column(first, USERNAME_COLUMNS) >= 0
  const header = hasHeader ? (table[0] ?? []) : null
  const usernameAt = hasHeader ? column(first, USERNAME_COLUMNS) : 0
  const platformAt = hasHeader ? column(first, PLATFORM_COLUMNS) : 1
  const reasonAt = hasHeader ? column(first, REASON_COLUMNS) : 2
  const body = hasHeader ? table.slice(1) : table
  if (body.length > MAX_IMPORT_ROWS)
    return {
      rows: [],
      header,
      problem: `The file has ${body.length.toLocaleString()} rows; import at most ${MAX_IMPORT_ROWS.toLocaleString()} at a time.`,
    }
  const seen = new Map<string, number>()
  const rows = body.map((cells, index): ParsedRow => {
    const line = index + (hasHeader ? 2 : 1)
    const read = readUsername(unguard(cells[usernameAt] ?? ''))
    const platformCell = platformAt >= 0 ? readPlatform(unguard(cells[platformAt] ?? '')) : null
    const reason = reasonAt >= 0 ? unguard(cells[reasonAt] ?? '').slice(0, 500) : ''
    const base = { line, username: read.username, reason, duplicateOf: null, cells }
    if (platformCell === 'unknown')
      return {
        ...base,
        platform: null,
        error: `Unknown platform "${(cells[platformAt] ?? '').trim().slice(0, 30)}": use Twitter or Instagram.`,
      }
    const platform = platformCell ?? read.platform ?? fallbackPlatform
    if (!platform)
      return { ...base, platform: null, error: 'No platform: add a platform column or choose one above.' }
    const error = usernameProblem(read.username, platform)
    if (error) return { ...base, platform, error }
    const key = `${platform}:${read.username.toLowerCase()}`
    const earlier = seen.get(key)
    if (earlier !== undefined) return { ...base, platform, error: null, duplicateOf: earlier }
    seen.set(key, line)
    return { ...base, platform, error: null }
  })
  return { rows, header, problem: null }
}

// Export ---------------------------------------------------------------------------------------

export const EXPORT_HEADER = ['username', 'platform', 'reason', 'added_at', 'skipped_leads'] as const

/** The list as the Export download, through the app's one formula-safe encoder. */
export function dncExportCsv(rows: readonly DncEntry[]): string {
  return csvDocument([
    EXPORT_HEADER,
    ...rows.map((row) => [row.target_username, row.platform, row.reason, row.created_at, row.skipped_leads]),
  ])
}

/** The rows an import did not take, as they were in the file plus why, through the same encoder. */
export function rowsToFixCsv(
  header: readonly string[] | null,
  rows: readonly { cells: readonly string[]; error: string }[],
): string {
  return csvDocument([
    [...(header ?? ['username', 'platform', 'reason']), 'error'],
    ...rows.map(({ cells, error }) => [...cells, error]),
  ])
}

// A sandbox's state mirrored to a JSON file so a restart keeps it: read once at start (an
// unreadable file is reported and ignored), written soon after a change (bursts coalesce into one
// write), write-then-rename so a crash mid-write never leaves a truncated file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** What was saved in `file`, if it exists and parses. */
export function readSaved<T>(file: string | undefined): T | undefined {
  if (!file || !existsSync(file)) return undefined
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T
  } catch (error) {
    console.error(`Ignoring unreadable sandbox state ${file}:`, error)
    return undefined
  }
}

export class SavedFile {
  #timer: NodeJS.Timeout | undefined

  /** `snapshot` gives what to write, at the time of writing. */
  constructor(
    readonly file: string | undefined,
    readonly snapshot: () => unknown,
  ) {}

  /** Saves soon (coalescing bursts of changes). */
  changed(): void {
    if (!this.file || this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.saveNow()
    }, 100)
  }

  saveNow(): void {
    if (!this.file) return
    mkdirSync(dirname(this.file), { recursive: true })
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.snapshot()))
    renameSync(`${this.file}.tmp`, this.file)
  }
}

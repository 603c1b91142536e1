// State of an official-API sandbox: one JSON-serialisable object kept in memory and mirrored to a
// file (write-then-rename, coalescing bursts), so a restart keeps accounts, tokens and logs.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export class JsonStore<T extends object> {
  #timer: NodeJS.Timeout | undefined

  constructor(
    readonly file: string | undefined,
    public state: T,
  ) {
    if (!file || !existsSync(file)) return
    try {
      this.state = { ...state, ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<T>) }
    } catch (error) {
      console.error(`Ignoring unreadable sandbox state ${file}:`, error)
    }
  }

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
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.state))
    renameSync(`${this.file}.tmp`, this.file)
  }
}

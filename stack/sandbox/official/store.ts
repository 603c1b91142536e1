// State of an official-API sandbox: one JSON-serialisable object kept in memory and mirrored to a
// file (social/saved-file.ts), so a restart keeps accounts, tokens and logs.
import { readSaved, SavedFile } from '../social/saved-file.ts'

export class JsonStore<T extends object> {
  readonly #saved: SavedFile

  constructor(
    readonly file: string | undefined,
    public state: T,
  ) {
    this.state = { ...state, ...readSaved<Partial<T>>(file) }
    this.#saved = new SavedFile(file, () => this.state)
  }

  changed(): void {
    this.#saved.changed()
  }

  saveNow(): void {
    this.#saved.saveNow()
  }
}

// The bytes of objects on disk under config.storageDir. Every blob is named by a version id the
// gateway generates (a UUID), never by the user's key, so no key can reach outside the folder.
import { randomUUID } from 'node:crypto'
import { createReadStream, type ReadStream } from 'node:fs'
import { copyFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ensureDir } from '../../../src/config.ts'
import { notStored } from './errors.ts'

const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export class BlobStore {
  private readonly dir: string

  constructor(storageDir: string) {
    this.dir = ensureDir(join(storageDir, 'objects'))
  }

  private path(version: string): string {
    if (!VERSION.test(version)) throw new Error(`not a blob version: ${version}`)
    return join(this.dir, version)
  }

  /** Stores the bytes under a new version; a failed write (a full disk) leaves no partial file behind. */
  async write(bytes: Buffer): Promise<string> {
    const version = randomUUID()
    try {
      await writeFile(this.path(version), bytes, { mode: 0o600 })
    } catch {
      await rm(this.path(version), { force: true }).catch(() => undefined)
      throw notStored()
    }
    return version
  }

  async copy(version: string): Promise<string> {
    const copied = randomUUID()
    await copyFile(this.path(version), this.path(copied))
    return copied
  }

  read(version: string): ReadStream {
    return createReadStream(this.path(version))
  }

  async remove(version: string | null | undefined): Promise<void> {
    if (version && VERSION.test(version)) await rm(this.path(version), { force: true })
  }
}

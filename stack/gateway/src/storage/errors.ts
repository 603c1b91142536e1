// Storage errors in supabase/storage's body format `{statusCode: "<status>", code, error, message}`.
// As the storage server does, most are sent with HTTP 400 and the real status in the body; only a
// too-large upload gets its own HTTP status (413), and a bug 500.
import type { ServerResponse } from 'node:http'
import { sendJson } from '../http.ts'

export class StorageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly error: string,
    message: string,
  ) {
    super(message)
  }

  get httpStatus(): number {
    if (this.statusCode === 413 || this.statusCode === 500) return this.statusCode
    return 400
  }
}

export function sendStorageError(res: ServerResponse, error: StorageError): void {
  sendJson(res, error.httpStatus, {
    statusCode: String(error.statusCode),
    code: error.code,
    error: error.error,
    message: error.message,
  })
}

export const noSuchKey = () => new StorageError(404, 'NoSuchKey', 'not_found', 'Object not found')
export const noSuchBucket = () =>
  new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found')
export const invalidKey = (key: string) =>
  new StorageError(400, 'InvalidKey', 'Invalid Input', `Invalid key: ${key.slice(0, 200)}`)
export const invalidRequest = (message: string) =>
  new StorageError(400, 'InvalidRequest', 'Bad Request', message)
export const rlsDenied = () =>
  new StorageError(403, 'Unauthorized', 'Unauthorized', 'new row violates row-level security policy')
export const duplicate = () => new StorageError(409, 'Duplicate', 'Duplicate', 'The resource already exists')
export const tooLarge = () =>
  new StorageError(413, 'EntityTooLarge', 'Payload too large', 'The object exceeded the maximum allowed size')
/** The disk (or the object store) refused the bytes: HTTP 500, as the storage server answers a backend failure. */
export const notStored = () =>
  new StorageError(
    500,
    'InternalError',
    'Internal Server Error',
    'The object could not be stored: the storage is full or unavailable. Nothing was saved.',
  )
export const invalidMimeType = (type: string) =>
  new StorageError(415, 'InvalidMimeType', 'invalid_mime_type', `mime type ${type} is not supported`)

/** Maps a Postgres error from a statement run as the caller to the storage error it means. */
export function fromPostgres(error: unknown): StorageError | undefined {
  const code = (error as { code?: string }).code
  if (code === '42501') return rlsDenied()
  if (code === '23505') return duplicate()
  if (code === '23503') return noSuchBucket()
  return undefined
}

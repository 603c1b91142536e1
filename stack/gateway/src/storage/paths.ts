// Object keys and bucket ids as supabase/storage accepts them. A key never names a file on disk
// (blobs are stored under generated version ids), but keys with `..` segments, a leading slash, NUL
// or control characters are still refused so nothing downstream can misread them.
import { invalidKey, invalidRequest } from './errors.ts'

const KEY_CHARS = /^[\p{L}\p{N}_/!\-.*'() &$@=;:+,?]+$/u
const BUCKET_ID = /^[\p{L}\p{N}_\-.!*'() &$@=;:+,?]{1,100}$/u

export function validateKey(key: string): string {
  const invalid =
    key.length === 0 ||
    key.length > 1024 ||
    key.startsWith('/') ||
    key.endsWith('/') ||
    !KEY_CHARS.test(key) ||
    key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')
  if (invalid) throw invalidKey(key)
  return key
}

export function validateBucketId(id: string): string {
  if (!BUCKET_ID.test(id) || id === '.' || id === '..')
    throw invalidRequest(`Bucket name invalid: ${id.slice(0, 100)}`)
  return id
}

/** Decodes a percent-encoded path tail; a malformed escape is an invalid key. */
export function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw invalidKey(raw)
  }
}

/** `/bucket/a/b.png` → {bucket, key}; the key is validated. */
export function bucketAndKey(tail: string): { bucket: string; key: string } {
  const decoded = decodePath(tail)
  const slash = decoded.indexOf('/')
  if (slash <= 0) throw invalidKey(decoded)
  return { bucket: validateBucketId(decoded.slice(0, slash)), key: validateKey(decoded.slice(slash + 1)) }
}

const MIME = /^[\w.+-]+\/[\w.+-]+$/

/** Whether a mime type (parameters ignored) is allowed by a bucket's list (`image/*` wildcards). */
export function mimeAllowed(mimetype: string, allowed: string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true
  const base = mimetype.split(';')[0]?.trim().toLowerCase() ?? ''
  if (!MIME.test(base)) return false
  return allowed.some((entry) => {
    const rule = entry.trim().toLowerCase()
    return rule === base || (rule.endsWith('/*') && base.startsWith(rule.slice(0, -1)))
  })
}

/** Sizes as storage accepts them for file_size_limit: bytes, or "5MB", "100kb", "1GB". */
export function parseSize(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value
  if (typeof value === 'string') {
    const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim())
    if (match) {
      const units: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }
      return Math.floor(Number(match[1]) * (units[(match[2] ?? 'b').toLowerCase()] ?? 1))
    }
  }
  throw invalidRequest('file_size_limit must be a number of bytes or a size such as "5MB"')
}

// Uploads (POST, and PUT which storage treats as an upsert): the body is raw bytes or multipart
// form data as storage-js sends it; the bucket's size limit and allowed mime types apply; the row
// is written as the caller so the INSERT (and for upserts SELECT and UPDATE) policies decide.
import { createHash } from 'node:crypto'
import type { Caller, GatewayContext, GatewayRequest } from '../http.ts'
import { HttpError } from '../http.ts'
import { asCaller } from './as-caller.ts'
import type { BlobStore } from './blobs.ts'
import { fromPostgres, invalidMimeType, invalidRequest, noSuchBucket, tooLarge } from './errors.ts'
import { mimeAllowed } from './paths.ts'

export interface BucketRow {
  id: string
  public: boolean
  file_size_limit: number | string | null
  allowed_mime_types: string[] | null
}

/** The storage server's global upload limit (the CLI's default 50 MiB); a bucket may set a lower one. */
export function globalFileSizeLimit(): number {
  const value = Number(process.env.STORAGE_FILE_SIZE_LIMIT ?? 50 * 1024 * 1024)
  return Number.isInteger(value) && value > 0 ? value : 50 * 1024 * 1024
}

export async function findBucket(ctx: GatewayContext, id: string): Promise<BucketRow | undefined> {
  const { rows } = await ctx.adminPool.query<BucketRow>(
    'select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
    [id],
  )
  return rows[0]
}

interface Upload {
  bytes: Buffer
  mimetype: string
  cacheControl: string
  userMetadata: Record<string, unknown> | null
}

function parseMetadata(raw: string | null | undefined): Record<string, unknown> | null {
  if (!raw) return null
  try {
    const parsed: unknown = JSON.parse(raw)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>
  } catch {
    // falls through
  }
  throw invalidRequest('metadata must be a JSON object')
}

async function readUpload(request: GatewayRequest, limit: number): Promise<Upload> {
  const contentType = request.req.headers['content-type'] ?? 'application/octet-stream'
  const multipart = contentType.toLowerCase().startsWith('multipart/form-data')
  let body: Buffer
  try {
    // Multipart framing adds a little around the file; the file itself is checked below.
    body = await request.body(multipart ? limit + 64 * 1024 : limit)
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) throw tooLarge()
    throw error
  }
  if (!multipart) {
    const metadataHeader = request.req.headers['x-metadata']
    return {
      bytes: body,
      mimetype: contentType,
      cacheControl: String(request.req.headers['cache-control'] ?? 'no-cache'),
      userMetadata: parseMetadata(
        typeof metadataHeader === 'string' ? Buffer.from(metadataHeader, 'base64').toString('utf8') : null,
      ),
    }
  }
  let form: FormData
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData()
  } catch {
    throw invalidRequest('The multipart body could not be parsed')
  }
  // forEach, not values(): the runner's `lib="dom"` files put DOM's FormData (no iterator) in this program.
  let file: File | undefined
  form.forEach((value) => {
    if (!file && typeof value !== 'string') file = value
  })
  if (!file) throw invalidRequest('No file found in the multipart body')
  if (file.size > limit) throw tooLarge()
  const cacheControl = form.get('cacheControl')
  const metadata = form.get('metadata')
  return {
    bytes: Buffer.from(await file.arrayBuffer()),
    mimetype: file.type || 'text/plain;charset=UTF-8',
    cacheControl: typeof cacheControl === 'string' && cacheControl ? `max-age=${cacheControl}` : 'no-cache',
    userMetadata: parseMetadata(typeof metadata === 'string' ? metadata : null),
  }
}

export async function uploadObject(
  request: GatewayRequest,
  ctx: GatewayContext,
  blobs: BlobStore,
  caller: Caller,
  target: { bucket: string; key: string },
  upsert: boolean,
): Promise<{ Id: string; Key: string }> {
  const bucket = await findBucket(ctx, target.bucket)
  if (!bucket) throw noSuchBucket()
  const bucketLimit = bucket.file_size_limit === null ? null : Number(bucket.file_size_limit)
  const limit =
    bucketLimit && bucketLimit > 0 ? Math.min(bucketLimit, globalFileSizeLimit()) : globalFileSizeLimit()
  const upload = await readUpload(request, limit)
  if (!mimeAllowed(upload.mimetype, bucket.allowed_mime_types)) {
    throw invalidMimeType(upload.mimetype.split(';')[0] ?? upload.mimetype)
  }
  const metadata = {
    eTag: `"${createHash('md5').update(upload.bytes).digest('hex')}"`,
    size: upload.bytes.length,
    mimetype: upload.mimetype,
    cacheControl: upload.cacheControl,
    lastModified: new Date().toUTCString(),
    contentLength: upload.bytes.length,
    httpStatusCode: 200,
  }
  const previous = upsert
    ? (
        await ctx.adminPool.query<{ version: string | null }>(
          'select version from storage.objects where bucket_id = $1 and name = $2',
          [target.bucket, target.key],
        )
      ).rows[0]?.version
    : undefined
  const version = await blobs.write(upload.bytes)
  const owner =
    caller.role === 'authenticated' && typeof caller.claims.sub === 'string' ? caller.claims.sub : null
  const values = [target.bucket, target.key, owner, metadata, upload.userMetadata, version]
  try {
    const id = await asCaller(ctx, caller, async (db) => {
      const insert = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
                      values ($1, $2, $3::text::uuid, $3::text, $4, $5, $6)`
      const { rows } = await db.query<{ id: string }>(
        upsert
          ? `${insert} on conflict (bucket_id, name) do update set metadata = excluded.metadata,
               user_metadata = excluded.user_metadata, version = excluded.version, owner = excluded.owner,
               owner_id = excluded.owner_id, updated_at = now(), last_accessed_at = now()
             returning id`
          : `${insert} returning id`,
        values,
      )
      const row = rows[0]
      if (!row) throw invalidRequest('The object was not written')
      return row.id
    })
    if (previous && previous !== version) await blobs.remove(previous)
    return { Id: id, Key: `${target.bucket}/${target.key}` }
  } catch (error) {
    await blobs.remove(version)
    throw fromPostgres(error) ?? error
  }
}

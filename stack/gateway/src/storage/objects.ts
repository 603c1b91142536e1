// Reading and managing objects: download (private, public and signed), info, remove, list and
// signed URLs. Reads of the object table run as the caller (SELECT policies decide) except on the
// public route of a public bucket and on a valid signed URL, which are allowed without a user.
import type { ServerResponse } from 'node:http'
import { jwtVerify, SignJWT } from 'jose'
import type { Caller, GatewayContext, GatewayRequest } from '../http.ts'
import { sendJson } from '../http.ts'
import { asCaller } from './as-caller.ts'
import type { BlobStore } from './blobs.ts'
import { fromPostgres, invalidRequest, noSuchBucket, noSuchKey, StorageError } from './errors.ts'
import { validateKey } from './paths.ts'
import { findBucket } from './upload.ts'

export interface ObjectRow {
  id: string
  bucket_id: string
  name: string
  owner: string | null
  version: string | null
  metadata: Record<string, unknown> | null
  user_metadata: Record<string, unknown> | null
  created_at: Date
  updated_at: Date
  last_accessed_at: Date
}

const OBJECT_COLUMNS =
  'id, bucket_id, name, owner, version, metadata, user_metadata, created_at, updated_at, last_accessed_at'

async function selectAsCaller(ctx: GatewayContext, caller: Caller, bucket: string, key: string) {
  const rows = await asCaller(
    ctx,
    caller,
    async (db) =>
      (
        await db.query<ObjectRow>(
          `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
          [bucket, key],
        )
      ).rows,
  ).catch((error: unknown) => {
    throw fromPostgres(error) ?? error
  })
  const row = rows[0]
  if (!row) throw noSuchKey()
  return row
}

async function selectAsAdmin(ctx: GatewayContext, bucket: string, key: string) {
  const { rows } = await ctx.adminPool.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, key],
  )
  const row = rows[0]
  if (!row) throw noSuchKey()
  return row
}

/**
 * Types a browser would run as a page or script in the project's origin if opened inline. Hosted
 * Supabase does not serve user-uploaded HTML as a page (supabase/cli#4396: an uploaded text/html
 * object comes back as text/plain); here such objects are forced to download instead.
 */
const ACTIVE_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/ecmascript',
])

export const isActiveType = (mimetype: string) =>
  ACTIVE_TYPES.has((mimetype.split(';')[0] ?? '').trim().toLowerCase())

/** Streams an object's bytes with the headers storage sends; HEAD sends the headers only. */
export function sendObject(request: GatewayRequest, blobs: BlobStore, row: ObjectRow): Promise<void> {
  const meta = row.metadata ?? {}
  const headers: Record<string, string> = {
    'Content-Type': String(meta.mimetype ?? 'application/octet-stream'),
    'Content-Length': String(meta.size ?? 0),
    'Cache-Control': String(meta.cacheControl ?? 'no-cache'),
    ETag: String(meta.eTag ?? ''),
    'Last-Modified': row.updated_at.toUTCString(),
  }
  const download = request.url.searchParams.get('download')
  if (download !== null || isActiveType(headers['Content-Type'] ?? '')) {
    const filename = download || row.name.split('/').pop() || 'download'
    headers['Content-Disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`
  }
  const res: ServerResponse = request.res
  if (request.method === 'HEAD') {
    res.writeHead(200, headers)
    res.end()
    return Promise.resolve()
  }
  return new Promise((resolve, reject) => {
    const stream = blobs.read(row.version ?? '')
    stream.once('open', () => {
      res.writeHead(200, headers)
      stream.pipe(res)
    })
    stream.once('error', (error) => {
      if (!res.headersSent) reject(noSuchKey())
      else {
        res.destroy(error)
        resolve()
      }
    })
    stream.once('end', () => resolve())
    // A client that goes away mid-download must not leave the request (or the file) open.
    res.once('close', () => {
      stream.destroy()
      resolve()
    })
  })
}

export async function downloadObject(
  request: GatewayRequest,
  ctx: GatewayContext,
  blobs: BlobStore,
  caller: Caller,
  bucket: string,
  key: string,
): Promise<void> {
  return sendObject(request, blobs, await selectAsCaller(ctx, caller, bucket, key))
}

export async function downloadPublic(
  request: GatewayRequest,
  ctx: GatewayContext,
  blobs: BlobStore,
  bucket: string,
  key: string,
): Promise<void> {
  const found = await findBucket(ctx, bucket)
  if (!found?.public) throw noSuchBucket()
  return sendObject(request, blobs, await selectAsAdmin(ctx, bucket, key))
}

export async function objectInfo(
  request: GatewayRequest,
  ctx: GatewayContext,
  caller: Caller,
  bucket: string,
  key: string,
): Promise<void> {
  const row = await selectAsCaller(ctx, caller, bucket, key)
  const meta = row.metadata ?? {}
  sendJson(request.res, 200, {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: meta.size ?? null,
    content_type: meta.mimetype ?? null,
    cache_control: meta.cacheControl ?? null,
    etag: meta.eTag ?? null,
    metadata: row.user_metadata ?? {},
    last_modified: row.updated_at,
    created_at: row.created_at,
  })
}

/** DELETE /object/{bucket} {prefixes}: removes what the caller's DELETE policy allows. */
export async function removeObjects(
  ctx: GatewayContext,
  blobs: BlobStore,
  caller: Caller,
  bucket: string,
  prefixes: unknown,
): Promise<ObjectRow[]> {
  if (!Array.isArray(prefixes) || prefixes.length === 0 || prefixes.length > 1000) {
    throw invalidRequest('prefixes must be an array of 1 to 1000 object names')
  }
  const names = prefixes.map((name) => {
    if (typeof name !== 'string') throw invalidRequest('prefixes must be strings')
    return validateKey(name.replace(/^\/+|\/+$/g, '').replace(/\/+/g, '/'))
  })
  const removed = await asCaller(
    ctx,
    caller,
    async (db) =>
      (
        await db.query<ObjectRow>(
          `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
          [bucket, names],
        )
      ).rows,
  ).catch((error: unknown) => {
    throw fromPostgres(error) ?? error
  })
  await Promise.all(removed.map((row) => blobs.remove(row.version)))
  return removed
}

const SORT_COLUMNS = new Set(['name', 'created_at', 'updated_at', 'last_accessed_at'])

/** POST /object/list/{bucket}: one folder level under `prefix`, folders as entries with null id. */
export async function listObjects(
  ctx: GatewayContext,
  caller: Caller,
  bucket: string,
  body: Record<string, unknown>,
): Promise<unknown[]> {
  const rawPrefix = typeof body.prefix === 'string' ? body.prefix.replace(/^\/+/, '') : ''
  if (rawPrefix.includes('\0') || rawPrefix.split('/').some((s) => s === '..'))
    throw invalidRequest('Invalid prefix')
  const prefix = rawPrefix === '' || rawPrefix.endsWith('/') ? rawPrefix : `${rawPrefix}/`
  const limit = Math.min(1000, Math.max(1, Number(body.limit ?? 100) || 100))
  const offset = Math.max(0, Number(body.offset ?? 0) || 0)
  const sort = (body.sortBy ?? {}) as { column?: unknown; order?: unknown }
  const column = typeof sort.column === 'string' && SORT_COLUMNS.has(sort.column) ? sort.column : 'name'
  const order = String(sort.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc'
  const search = typeof body.search === 'string' ? body.search.toLowerCase() : ''
  return asCaller(ctx, caller, async (db) => {
    const { rows } = await db.query(
      `with visible as (
         select substr(name, char_length($2) + 1) as rest, id, created_at, updated_at, last_accessed_at, metadata
           from storage.objects where bucket_id = $1 and starts_with(name, $2)
       ), entries as (
         select distinct split_part(rest, '/', 1) as name, null::uuid as id, null::timestamptz as created_at,
                null::timestamptz as updated_at, null::timestamptz as last_accessed_at, null::jsonb as metadata
           from visible where strpos(rest, '/') > 0
         union all
         select rest, id, created_at, updated_at, last_accessed_at, metadata from visible where strpos(rest, '/') = 0
       )
       select * from entries where starts_with(lower(name), $3)
        order by ${column} ${order} nulls first, name ${order} limit $4 offset $5`,
      [bucket, prefix, search, limit, offset],
    )
    return rows
  }).catch((error: unknown) => {
    throw fromPostgres(error) ?? error
  })
}

const signingKey = (ctx: GatewayContext) => new TextEncoder().encode(ctx.config.jwtSecret)

function expiresIn(value: unknown): number {
  const seconds = Number(value)
  if (!Number.isInteger(seconds) || seconds < 1)
    throw invalidRequest('expiresIn must be a positive whole number')
  return seconds
}

async function signedPath(
  ctx: GatewayContext,
  bucket: string,
  key: string,
  seconds: number,
): Promise<string> {
  const url = `${bucket}/${key}`
  const now = Math.floor(Date.now() / 1000)
  const token = await new SignJWT({ url })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(signingKey(ctx))
  return `/object/sign/${url}?token=${token}`
}

/** POST /object/sign/{bucket}/{key}: only for an object the caller can read. */
export async function signOne(
  ctx: GatewayContext,
  caller: Caller,
  bucket: string,
  key: string,
  body: Record<string, unknown>,
) {
  const seconds = expiresIn(body.expiresIn)
  await selectAsCaller(ctx, caller, bucket, key)
  return { signedURL: await signedPath(ctx, bucket, key, seconds) }
}

/** POST /object/sign/{bucket} {expiresIn, paths}: one entry per path, an error for unreadable ones. */
export async function signMany(
  ctx: GatewayContext,
  caller: Caller,
  bucket: string,
  body: Record<string, unknown>,
) {
  const seconds = expiresIn(body.expiresIn)
  const paths = body.paths
  if (
    !Array.isArray(paths) ||
    paths.length === 0 ||
    paths.length > 1000 ||
    paths.some((p) => typeof p !== 'string')
  ) {
    throw invalidRequest('paths must be an array of 1 to 1000 object names')
  }
  const names = paths as string[]
  const visible = await asCaller(ctx, caller, async (db) =>
    (
      await db.query<{ name: string }>(
        'select name from storage.objects where bucket_id = $1 and name = any($2::text[])',
        [bucket, names],
      )
    ).rows.map((row) => row.name),
  )
  const readable = new Set(visible)
  return Promise.all(
    names.map(async (path) =>
      readable.has(path)
        ? { error: null, path, signedURL: await signedPath(ctx, bucket, path, seconds) }
        : {
            error: 'Either the object does not exist or you do not have access to it',
            path,
            signedURL: null,
          },
    ),
  )
}

/** GET /object/sign/{bucket}/{key}?token=…: the token must be ours, unexpired, and for this object. */
export async function downloadSigned(
  request: GatewayRequest,
  ctx: GatewayContext,
  blobs: BlobStore,
  bucket: string,
  key: string,
): Promise<void> {
  const token = request.url.searchParams.get('token')
  if (!token) throw new StorageError(400, 'InvalidSignature', 'Invalid JWT', 'Missing token')
  let url: unknown
  try {
    url = (await jwtVerify(token, signingKey(ctx), { algorithms: ['HS256'] })).payload.url
  } catch (error) {
    const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED'
    throw new StorageError(
      400,
      'InvalidSignature',
      'Invalid JWT',
      expired ? 'jwt expired' : 'invalid signature',
    )
  }
  if (url !== `${bucket}/${key}`)
    throw new StorageError(400, 'InvalidSignature', 'Invalid JWT', 'Invalid signature')
  return sendObject(request, blobs, await selectAsAdmin(ctx, bucket, key))
}

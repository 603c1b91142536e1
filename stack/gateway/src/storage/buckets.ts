// Bucket administration (storage.listBuckets/getBucket/createBucket/updateBucket/emptyBucket/
// deleteBucket). Statements run as the caller, so without a policy on storage.buckets only the
// service role (which bypasses RLS) can manage buckets, as on hosted Supabase.
import type { Caller, GatewayContext } from '../http.ts'
import { asCaller } from './as-caller.ts'
import type { BlobStore } from './blobs.ts'
import { fromPostgres, invalidRequest, noSuchBucket, StorageError } from './errors.ts'
import { parseSize, validateBucketId } from './paths.ts'

const BUCKET_COLUMNS =
  'id, name, owner, public, file_size_limit::float8 as file_size_limit, allowed_mime_types, created_at, updated_at'

async function run<T>(
  ctx: GatewayContext,
  caller: Caller,
  work: Parameters<typeof asCaller<T>>[2],
): Promise<T> {
  return asCaller(ctx, caller, work).catch((error: unknown) => {
    throw fromPostgres(error) ?? error
  })
}

function mimeTypes(value: unknown): string[] | null {
  if (value === undefined || value === null) return null
  if (
    !Array.isArray(value) ||
    value.some((entry) => typeof entry !== 'string' || !/^[\w.+-]+\/([\w.+-]+|\*)$/.test(entry))
  ) {
    throw invalidRequest('allowed_mime_types must be a list of mime types such as "image/png" or "image/*"')
  }
  return value as string[]
}

export function listBuckets(ctx: GatewayContext, caller: Caller) {
  return run(
    ctx,
    caller,
    async (db) => (await db.query(`select ${BUCKET_COLUMNS} from storage.buckets order by name`)).rows,
  )
}

export async function getBucket(ctx: GatewayContext, caller: Caller, id: string) {
  const rows = await run(
    ctx,
    caller,
    async (db) => (await db.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id])).rows,
  )
  if (!rows[0]) throw noSuchBucket()
  return rows[0]
}

export async function createBucket(ctx: GatewayContext, caller: Caller, body: Record<string, unknown>) {
  const name = typeof body.name === 'string' ? body.name : typeof body.id === 'string' ? body.id : ''
  const id = validateBucketId(typeof body.id === 'string' ? body.id : name)
  const owner =
    caller.role === 'authenticated' && typeof caller.claims.sub === 'string' ? caller.claims.sub : null
  await run(ctx, caller, (db) =>
    db.query(
      `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
       values ($1, $2, $3::text::uuid, $3::text, $4, $5, $6)`,
      [
        id,
        validateBucketId(name || id),
        owner,
        body.public === true,
        parseSize(body.file_size_limit),
        mimeTypes(body.allowed_mime_types),
      ],
    ),
  ).catch((error: unknown) => {
    if (error instanceof StorageError && error.statusCode === 409) {
      throw new StorageError(409, 'BucketAlreadyExists', 'Duplicate', 'The resource already exists')
    }
    throw error
  })
  return { name: id }
}

export async function updateBucket(
  ctx: GatewayContext,
  caller: Caller,
  id: string,
  body: Record<string, unknown>,
) {
  const { rowCount } = await run(ctx, caller, (db) =>
    db.query(
      `update storage.buckets set public = coalesce($2, public), file_size_limit = $3, allowed_mime_types = $4,
         updated_at = now() where id = $1`,
      [
        id,
        typeof body.public === 'boolean' ? body.public : null,
        parseSize(body.file_size_limit),
        mimeTypes(body.allowed_mime_types),
      ],
    ),
  )
  if (!rowCount) throw noSuchBucket()
  return { message: 'Successfully updated' }
}

export async function emptyBucket(ctx: GatewayContext, blobs: BlobStore, caller: Caller, id: string) {
  await getBucket(ctx, caller, id)
  const removed = await run(
    ctx,
    caller,
    async (db) =>
      (
        await db.query<{ version: string | null }>(
          'delete from storage.objects where bucket_id = $1 returning version',
          [id],
        )
      ).rows,
  )
  await Promise.all(removed.map((row) => blobs.remove(row.version)))
  return { message: 'Successfully emptied' }
}

export async function deleteBucket(ctx: GatewayContext, caller: Caller, id: string) {
  const { rowCount } = await run(ctx, caller, (db) =>
    db.query('delete from storage.buckets where id = $1', [id]),
  ).catch((error: unknown) => {
    if (error instanceof StorageError && error.code === 'NoSuchBucket') {
      throw new StorageError(
        409,
        'InvalidRequest',
        'Bucket not empty',
        'The bucket you tried to delete is not empty',
      )
    }
    throw error
  })
  if (!rowCount) throw noSuchBucket()
  return { message: 'Successfully deleted' }
}

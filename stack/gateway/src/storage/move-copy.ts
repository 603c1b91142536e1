// Moving and copying objects (storage-js move/copy). A move renames the row as the caller, so the
// UPDATE policy must allow both the old and the new name; a copy reads the source (SELECT) and
// inserts the destination (INSERT) as the caller, with its own copy of the bytes.
import type { Caller, GatewayContext } from '../http.ts'
import { asCaller } from './as-caller.ts'
import type { BlobStore } from './blobs.ts'
import { fromPostgres, invalidRequest, noSuchKey } from './errors.ts'
import { validateBucketId, validateKey } from './paths.ts'
import { findBucket } from './upload.ts'

interface Transfer {
  sourceBucket: string
  sourceKey: string
  destinationBucket: string
  destinationKey: string
}

export function parseTransfer(body: Record<string, unknown>): Transfer {
  const text = (name: string) => {
    const value = body[name]
    if (typeof value !== 'string' || value === '') throw invalidRequest(`${name} is required`)
    return value
  }
  const sourceBucket = validateBucketId(text('bucketId'))
  const destination = typeof body.destinationBucket === 'string' ? body.destinationBucket : sourceBucket
  return {
    sourceBucket,
    sourceKey: validateKey(text('sourceKey')),
    destinationBucket: validateBucketId(destination),
    destinationKey: validateKey(text('destinationKey')),
  }
}

const rethrow = (error: unknown): never => {
  throw fromPostgres(error) ?? error
}

export async function moveObject(ctx: GatewayContext, caller: Caller, move: Transfer) {
  if (!(await findBucket(ctx, move.destinationBucket))) throw invalidRequest('Destination bucket not found')
  const { rowCount } = await asCaller(ctx, caller, (db) =>
    db.query(
      `update storage.objects set bucket_id = $3, name = $4, updated_at = now()
        where bucket_id = $1 and name = $2`,
      [move.sourceBucket, move.sourceKey, move.destinationBucket, move.destinationKey],
    ),
  ).catch(rethrow)
  if (!rowCount) throw noSuchKey()
  return { message: 'Successfully moved' }
}

export async function copyObject(ctx: GatewayContext, blobs: BlobStore, caller: Caller, copy: Transfer) {
  if (!(await findBucket(ctx, copy.destinationBucket))) throw invalidRequest('Destination bucket not found')
  const owner =
    caller.role === 'authenticated' && typeof caller.claims.sub === 'string' ? caller.claims.sub : null
  let version: string | undefined
  try {
    const id = await asCaller(ctx, caller, async (db) => {
      const { rows } = await db.query<{ version: string | null; metadata: unknown; user_metadata: unknown }>(
        'select version, metadata, user_metadata from storage.objects where bucket_id = $1 and name = $2',
        [copy.sourceBucket, copy.sourceKey],
      )
      const source = rows[0]
      if (!source?.version) throw noSuchKey()
      version = await blobs.copy(source.version)
      const inserted = await db.query<{ id: string }>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3::text::uuid, $3::text, $4, $5, $6) returning id`,
        [copy.destinationBucket, copy.destinationKey, owner, source.metadata, source.user_metadata, version],
      )
      return inserted.rows[0]?.id
    })
    return { Id: id, Key: `${copy.destinationBucket}/${copy.destinationKey}` }
  } catch (error) {
    await blobs.remove(version)
    return rethrow(error)
  }
}

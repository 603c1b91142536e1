// /storage/v1: the routes storage-js calls, dispatched by method and path.
import type { Caller, GatewayContext, GatewayRequest } from '../http.ts'
import { HttpError, resolveCaller, sendJson } from '../http.ts'
import { JwtError } from '../keys.ts'
import { BlobStore } from './blobs.ts'
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from './buckets.ts'
import { invalidRequest, StorageError, sendStorageError } from './errors.ts'
import { copyObject, moveObject, parseTransfer } from './move-copy.ts'
import {
  downloadObject,
  downloadPublic,
  downloadSigned,
  listObjects,
  objectInfo,
  removeObjects,
  signMany,
  signOne,
} from './objects.ts'
import { bucketAndKey, decodePath, validateBucketId } from './paths.ts'
import { uploadObject } from './upload.ts'

async function caller(request: GatewayRequest, ctx: GatewayContext): Promise<Caller> {
  try {
    return await resolveCaller(request.req, ctx.keys)
  } catch (error) {
    if (error instanceof JwtError) {
      const message = /expired/.test(error.message) ? 'jwt expired' : error.message
      throw new StorageError(403, 'InvalidJWT', 'Unauthorized', message)
    }
    throw error
  }
}

async function jsonBody(request: GatewayRequest): Promise<Record<string, unknown>> {
  const parsed = await request
    .json<unknown>(
      (message) =>
        new HttpError(400, { statusCode: '400', code: 'InvalidRequest', error: 'Bad Request', message }),
    )
    .catch((error: unknown) => {
      if (error instanceof HttpError && error.status === 413)
        throw invalidRequest('Request body is too large')
      throw error
    })
  if (parsed === undefined) return {}
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidRequest('Body must be a JSON object')
  return parsed as Record<string, unknown>
}

/** Splits `/object/sign/b/k` style paths: the route word(s) before the bucket, then the rest. */
function after(path: string, prefix: string): string | undefined {
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined
}

export function createStorageHandler(storageDir: string) {
  const blobs = new BlobStore(storageDir)

  const route = async (request: GatewayRequest, ctx: GatewayContext): Promise<void> => {
    const { method, res } = request
    const path = request.url.pathname.slice('/storage/v1'.length)
    const read = method === 'GET' || method === 'HEAD'

    // Routes that need no user: public objects and signed URLs.
    const publicTail = read ? after(path, '/object/public/') : undefined
    if (publicTail !== undefined) {
      const { bucket, key } = bucketAndKey(publicTail)
      return downloadPublic(request, ctx, blobs, bucket, key)
    }
    const signedTail = after(path, '/object/sign/')
    if (read && signedTail !== undefined) {
      const { bucket, key } = bucketAndKey(signedTail)
      return downloadSigned(request, ctx, blobs, bucket, key)
    }

    const who = await caller(request, ctx)
    if (path === '/bucket' || path === '/bucket/') {
      if (method === 'GET') return sendJson(res, 200, await listBuckets(ctx, who))
      if (method === 'POST') return sendJson(res, 200, await createBucket(ctx, who, await jsonBody(request)))
    }
    const bucketTail = after(path, '/bucket/')
    if (bucketTail !== undefined) {
      const [rawId, action] = bucketTail.split('/')
      const id = validateBucketId(decodePath(rawId ?? ''))
      if (action === 'empty' && method === 'POST')
        return sendJson(res, 200, await emptyBucket(ctx, blobs, who, id))
      if (action === undefined) {
        if (method === 'GET') return sendJson(res, 200, await getBucket(ctx, who, id))
        if (method === 'PUT')
          return sendJson(res, 200, await updateBucket(ctx, who, id, await jsonBody(request)))
        if (method === 'DELETE') return sendJson(res, 200, await deleteBucket(ctx, who, id))
      }
    }
    const listTail = after(path, '/object/list/')
    if (method === 'POST' && listTail !== undefined) {
      const bucket = validateBucketId(decodePath(listTail))
      return sendJson(res, 200, await listObjects(ctx, who, bucket, await jsonBody(request)))
    }
    if (method === 'POST' && signedTail !== undefined) {
      const decoded = decodePath(signedTail)
      if (!decoded.includes('/')) {
        return sendJson(
          res,
          200,
          await signMany(ctx, who, validateBucketId(decoded), await jsonBody(request)),
        )
      }
      const { bucket, key } = bucketAndKey(signedTail)
      return sendJson(res, 200, await signOne(ctx, who, bucket, key, await jsonBody(request)))
    }
    if (method === 'POST' && path === '/object/move') {
      return sendJson(res, 200, await moveObject(ctx, who, parseTransfer(await jsonBody(request))))
    }
    if (method === 'POST' && path === '/object/copy') {
      return sendJson(res, 200, await copyObject(ctx, blobs, who, parseTransfer(await jsonBody(request))))
    }
    const infoTail = after(path, '/object/info/')
    if (read && infoTail !== undefined) {
      const { bucket, key } = bucketAndKey(infoTail.replace(/^(authenticated|public)\//, ''))
      return objectInfo(request, ctx, who, bucket, key)
    }
    const objectTail = after(path, '/object/')
    if (objectTail !== undefined) return objectRoute(request, ctx, who, objectTail)
    throw new StorageError(404, 'NotFound', 'Not Found', `Route ${method}:${path} not found`)
  }

  /** /object/{bucket}/{key}: download, upload (POST/PUT) and delete; /object/{bucket}: bulk delete. */
  const objectRoute = async (request: GatewayRequest, ctx: GatewayContext, who: Caller, tail: string) => {
    const { method, res } = request
    if (method === 'GET' || method === 'HEAD') {
      const { bucket, key } = bucketAndKey(tail.replace(/^authenticated\//, ''))
      return downloadObject(request, ctx, blobs, who, bucket, key)
    }
    if (method === 'DELETE' && !decodePath(tail).includes('/')) {
      const bucket = validateBucketId(decodePath(tail))
      const body = await jsonBody(request)
      return sendJson(res, 200, await removeObjects(ctx, blobs, who, bucket, body.prefixes))
    }
    if (method === 'DELETE') {
      const { bucket, key } = bucketAndKey(tail)
      const removed = await removeObjects(ctx, blobs, who, bucket, [key])
      if (removed.length === 0) throw new StorageError(404, 'NoSuchKey', 'not_found', 'Object not found')
      return sendJson(res, 200, { message: 'Successfully deleted' })
    }
    if (method === 'POST' || method === 'PUT') {
      const target = bucketAndKey(tail)
      const upsert = method === 'PUT' || String(request.req.headers['x-upsert']).toLowerCase() === 'true'
      return sendJson(res, 200, await uploadObject(request, ctx, blobs, who, target, upsert))
    }
    throw new StorageError(404, 'NotFound', 'Not Found', `Route ${method}:/object/${tail} not found`)
  }

  return async function storageHandler(request: GatewayRequest, ctx: GatewayContext): Promise<void> {
    // Every storage answer: a browser must not guess a type other than the declared one.
    request.res.setHeader('X-Content-Type-Options', 'nosniff')
    try {
      await route(request, ctx)
    } catch (error) {
      if (error instanceof StorageError && !request.res.headersSent)
        return sendStorageError(request.res, error)
      throw error
    }
  }
}

// /storage/v1 through supabase-js: uploads under RLS, downloads, public and signed URLs, listing,
// removal, bucket limits, and the paths and tokens that must be refused.
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_JWT_SECRET, stackConfig } from '../../src/config.ts'
import { anonKey, api, client, db, serviceClient, signedUpUser } from './helpers.ts'

const suffix = randomUUID().slice(0, 8)
const PRIVATE = `gw-private-${suffix}`
const PUBLIC = `gw-public-${suffix}`
const LIMITED = `gw-limited-${suffix}`
const storageDir = stackConfig('test').storageDir

let alice: Awaited<ReturnType<typeof signedUpUser>>
let bob: Awaited<ReturnType<typeof signedUpUser>>
const service = serviceClient()

/** Each user may manage objects in their own folder of the private bucket, and read the public one. */
const POLICIES = [
  `create policy "gw ${suffix} own insert" on storage.objects for insert to authenticated
     with check (bucket_id = '${PRIVATE}' and (storage.foldername(name))[1] = (select auth.uid())::text)`,
  `create policy "gw ${suffix} own select" on storage.objects for select to authenticated
     using (bucket_id = '${PRIVATE}' and (storage.foldername(name))[1] = (select auth.uid())::text)`,
  `create policy "gw ${suffix} own update" on storage.objects for update to authenticated
     using (bucket_id = '${PRIVATE}' and (storage.foldername(name))[1] = (select auth.uid())::text)`,
  `create policy "gw ${suffix} own delete" on storage.objects for delete to authenticated
     using (bucket_id = '${PRIVATE}' and (storage.foldername(name))[1] = (select auth.uid())::text)`,
]

beforeAll(async () => {
  alice = await signedUpUser('alice')
  bob = await signedUpUser('bob')
  expect((await service.storage.createBucket(PRIVATE, { public: false })).error).toBeNull()
  expect((await service.storage.createBucket(PUBLIC, { public: true })).error).toBeNull()
  const limited = await service.storage.createBucket(LIMITED, {
    public: false,
    fileSizeLimit: 1024,
    allowedMimeTypes: ['image/png', 'text/*'],
  })
  expect(limited.error).toBeNull()
  for (const policy of POLICIES) await db().query(policy)
})

afterAll(async () => {
  for (const name of ['insert', 'select', 'update', 'delete']) {
    await db().query(`drop policy if exists "gw ${suffix} own ${name}" on storage.objects`)
  }
  for (const bucket of [PRIVATE, PUBLIC, LIMITED]) {
    await service.storage.emptyBucket(bucket)
    await service.storage.deleteBucket(bucket)
  }
})

const own = (user: { user: { id: string } }, name: string) => `${user.user.id}/${name}`
const text = async (blob: Blob | null) => (blob ? await blob.text() : null)

describe('objects under RLS', () => {
  it('uploads raw bytes and multipart blobs to the own folder and downloads them', async () => {
    const raw = await alice.sb.storage
      .from(PRIVATE)
      .upload(own(alice, 'notes/raw.txt'), Buffer.from('raw body'), { contentType: 'text/plain' })
    expect(raw.error).toBeNull()
    expect(raw.data).toMatchObject({
      path: own(alice, 'notes/raw.txt'),
      fullPath: `${PRIVATE}/${own(alice, 'notes/raw.txt')}`,
    })
    expect(raw.data?.id).toMatch(/^[0-9a-f-]{36}$/)
    const blob = new Blob([JSON.stringify({ a: 1 })], { type: 'application/json' })
    expect((await alice.sb.storage.from(PRIVATE).upload(own(alice, 'data.json'), blob)).error).toBeNull()

    const download = await alice.sb.storage.from(PRIVATE).download(own(alice, 'notes/raw.txt'))
    expect(await text(download.data)).toBe('raw body')
    const json = await alice.sb.storage.from(PRIVATE).download(own(alice, 'data.json'))
    expect(json.data?.type).toBe('application/json')
    expect(await text(json.data)).toBe('{"a":1}')
    const info = await alice.sb.storage.from(PRIVATE).info(own(alice, 'data.json'))
    expect(info.data).toMatchObject({ size: 7, contentType: 'application/json' })
    expect((await alice.sb.storage.from(PRIVATE).exists(own(alice, 'data.json'))).data).toBe(true)
    expect((await alice.sb.storage.from(PRIVATE).exists(own(alice, 'missing.json'))).data).toBe(false)
  })

  it('denies writes outside the own folder with 403 in the body, and hides others’ objects', async () => {
    const denied = await alice.sb.storage.from(PRIVATE).upload(own(bob, 'intrusion.txt'), Buffer.from('x'))
    expect(denied.error).toMatchObject({ status: 400, statusCode: '403' })
    expect(denied.error?.message).toBe('new row violates row-level security policy')
    await bob.sb.storage.from(PRIVATE).upload(own(bob, 'secret.txt'), Buffer.from('bob only'))
    const peek = await alice.sb.storage.from(PRIVATE).download(own(bob, 'secret.txt'))
    expect(peek.error).toMatchObject({ status: 400, statusCode: '404' })
    const anon = await client().storage.from(PRIVATE).download(own(bob, 'secret.txt'))
    expect(anon.error).toMatchObject({ statusCode: '404' })
    const removed = await alice.sb.storage.from(PRIVATE).remove([own(bob, 'secret.txt')])
    expect(removed.data).toEqual([])
    expect(await text((await bob.sb.storage.from(PRIVATE).download(own(bob, 'secret.txt'))).data)).toBe(
      'bob only',
    )
    const anonUpload = await client().storage.from(PRIVATE).upload('anon.txt', Buffer.from('x'))
    expect(anonUpload.error).toMatchObject({ statusCode: '403' })
  })

  it('refuses a duplicate without upsert (409), replaces with upsert and with update', async () => {
    const path = own(alice, 'dup.txt')
    await alice.sb.storage.from(PRIVATE).upload(path, Buffer.from('one'))
    const again = await alice.sb.storage.from(PRIVATE).upload(path, Buffer.from('two'))
    expect(again.error).toMatchObject({ status: 400, statusCode: '409' })
    expect(
      (await alice.sb.storage.from(PRIVATE).upload(path, Buffer.from('two'), { upsert: true })).error,
    ).toBeNull()
    expect(await text((await alice.sb.storage.from(PRIVATE).download(path)).data)).toBe('two')
    expect((await alice.sb.storage.from(PRIVATE).update(path, Buffer.from('three'))).error).toBeNull()
    expect(await text((await alice.sb.storage.from(PRIVATE).download(path)).data)).toBe('three')
  })

  it('moves and copies within the policies: own folder yes, another user’s folder no', async () => {
    const from = own(alice, 'move/from.txt')
    await alice.sb.storage.from(PRIVATE).upload(from, Buffer.from('moving'))
    expect((await alice.sb.storage.from(PRIVATE).move(from, own(alice, 'move/to.txt'))).error).toBeNull()
    expect((await alice.sb.storage.from(PRIVATE).download(from)).error).toMatchObject({ statusCode: '404' })
    expect(await text((await alice.sb.storage.from(PRIVATE).download(own(alice, 'move/to.txt'))).data)).toBe(
      'moving',
    )
    const copied = await alice.sb.storage
      .from(PRIVATE)
      .copy(own(alice, 'move/to.txt'), own(alice, 'move/copy.txt'))
    expect(copied.data?.path).toBe(`${PRIVATE}/${own(alice, 'move/copy.txt')}`)
    await alice.sb.storage.from(PRIVATE).remove([own(alice, 'move/to.txt')])
    expect(
      await text((await alice.sb.storage.from(PRIVATE).download(own(alice, 'move/copy.txt'))).data),
    ).toBe('moving')
    const stolen = await alice.sb.storage
      .from(PRIVATE)
      .move(own(alice, 'move/copy.txt'), own(bob, 'gift.txt'))
    expect(stolen.error).toMatchObject({ statusCode: '403' })
    const intoBob = await alice.sb.storage
      .from(PRIVATE)
      .copy(own(alice, 'move/copy.txt'), own(bob, 'gift.txt'))
    expect(intoBob.error).toMatchObject({ statusCode: '403' })
  })

  it('lists one folder level with folders first-class, and removes by path, bytes included', async () => {
    const base = own(alice, 'list')
    for (const name of ['b.txt', 'a.txt', 'sub/c.txt']) {
      await alice.sb.storage.from(PRIVATE).upload(`${base}/${name}`, Buffer.from(name))
    }
    const listed = await alice.sb.storage.from(PRIVATE).list(base)
    expect(listed.error).toBeNull()
    expect(listed.data?.map((entry) => [entry.name, entry.id === null])).toEqual([
      ['a.txt', false],
      ['b.txt', false],
      ['sub', true],
    ])
    const searched = await alice.sb.storage.from(PRIVATE).list(base, { search: 'b' })
    expect(searched.data?.map((entry) => entry.name)).toEqual(['b.txt'])
    expect((await bob.sb.storage.from(PRIVATE).list(base)).data).toEqual([])

    const { rows } = await db().query(
      'select version from storage.objects where bucket_id = $1 and name = $2',
      [PRIVATE, `${base}/a.txt`],
    )
    const blobFile = join(storageDir, 'objects', rows[0].version)
    expect(existsSync(blobFile)).toBe(true)
    const removed = await alice.sb.storage.from(PRIVATE).remove([`${base}/a.txt`, `${base}/sub/c.txt`])
    expect(removed.data?.map((entry) => entry.name).sort()).toEqual([`${base}/a.txt`, `${base}/sub/c.txt`])
    expect(existsSync(blobFile)).toBe(false)
    expect((await alice.sb.storage.from(PRIVATE).download(`${base}/a.txt`)).error).toMatchObject({
      statusCode: '404',
    })
  })
})

describe('public and signed URLs', () => {
  it('serves public-bucket objects without a token, and never private ones', async () => {
    await service.storage
      .from(PUBLIC)
      .upload('logo.txt', Buffer.from('public bytes'), { contentType: 'text/plain' })
    const { publicUrl } = service.storage.from(PUBLIC).getPublicUrl('logo.txt').data
    expect(publicUrl).toBe(`${api}/storage/v1/object/public/${PUBLIC}/logo.txt`)
    const response = await fetch(publicUrl)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain')
    expect(await response.text()).toBe('public bytes')
    await alice.sb.storage.from(PRIVATE).upload(own(alice, 'private.txt'), Buffer.from('p'))
    const privateUrl = alice.sb.storage.from(PRIVATE).getPublicUrl(own(alice, 'private.txt')).data.publicUrl
    const refused = await fetch(privateUrl)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' })
  })

  // Hosted storage does not let an uploaded page run in the project's origin: supabase/cli#4396
  // (https://github.com/supabase/cli/issues/4396) reports an uploaded text/html object coming back as
  // text/plain from hosted storage. The gateway keeps the declared type, with nosniff, and forces a
  // download for types a browser would execute (HTML, SVG, XML, JavaScript).
  it('serves user-declared HTML and SVG as attachments, with nosniff on every answer', async () => {
    const page = '<html><script>alert(document.cookie)</script></html>'
    for (const [name, type] of [
      ['page.html', 'text/html'],
      ['image.svg', 'image/svg+xml'],
      ['page.xhtml', 'application/xhtml+xml; charset=utf-8'],
    ] as const) {
      expect(
        (await service.storage.from(PUBLIC).upload(name, Buffer.from(page), { contentType: type })).error,
      ).toBeNull()
      const response = await fetch(`${api}/storage/v1/object/public/${PUBLIC}/${name}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${name}`)
      await response.arrayBuffer()
    }
    await service.storage
      .from(PUBLIC)
      .upload('plain.txt', Buffer.from('plain'), { contentType: 'text/plain' })
    const text = await fetch(`${api}/storage/v1/object/public/${PUBLIC}/plain.txt`)
    expect(text.headers.get('x-content-type-options')).toBe('nosniff')
    expect(text.headers.get('content-disposition')).toBeNull()
    await text.arrayBuffer()
    const missing = await fetch(`${api}/storage/v1/object/public/${PUBLIC}/nope.txt`)
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff')
    await missing.arrayBuffer()
  })

  it('signs URLs only for readable objects; a signed URL works without auth until it expires', async () => {
    const path = own(alice, 'signed.txt')
    await alice.sb.storage.from(PRIVATE).upload(path, Buffer.from('signed bytes'))
    const signed = await alice.sb.storage.from(PRIVATE).createSignedUrl(path, 60)
    expect(signed.error).toBeNull()
    const ok = await fetch(signed.data?.signedUrl ?? '')
    expect(await ok.text()).toBe('signed bytes')
    const download = await fetch(`${signed.data?.signedUrl}&download=copy.txt`)
    expect(download.headers.get('content-disposition')).toContain('copy.txt')
    expect((await bob.sb.storage.from(PRIVATE).createSignedUrl(path, 60)).error).toMatchObject({
      statusCode: '404',
    })

    const token = new URL(signed.data?.signedUrl ?? '').searchParams.get('token') ?? ''
    const otherPath = await fetch(
      `${api}/storage/v1/object/sign/${PRIVATE}/${own(alice, 'data.json')}?token=${token}`,
    )
    expect(otherPath.status).toBe(400)
    const tampered = await fetch(
      `${api}/storage/v1/object/sign/${PRIVATE}/${path}?token=${token.slice(0, -2)}xx`,
    )
    expect(await tampered.json()).toMatchObject({ message: 'invalid signature' })
    const now = Math.floor(Date.now() / 1000)
    const expired = await new SignJWT({ url: `${PRIVATE}/${path}` })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now - 120)
      .setExpirationTime(now - 60)
      .sign(new TextEncoder().encode(LOCAL_JWT_SECRET))
    const late = await fetch(`${api}/storage/v1/object/sign/${PRIVATE}/${path}?token=${expired}`)
    expect(await late.json()).toMatchObject({ message: 'jwt expired' })

    const many = await alice.sb.storage.from(PRIVATE).createSignedUrls([path, own(alice, 'nope.txt')], 60)
    expect(many.data?.[0]?.error).toBeNull()
    expect(many.data?.[1]?.error).toBeTruthy()
    expect(many.data?.[1]?.signedUrl).toBeNull()
  })
})

describe('limits and refused input', () => {
  it('refuses keys with .., absolute paths, NUL and malformed escapes, and writes nothing outside', async () => {
    const before = readdirSync(join(storageDir, '..'))
    const attempts = [
      `/storage/v1/object/${PRIVATE}/../escape.txt`,
      `/storage/v1/object/${PRIVATE}/${alice.user.id}/..%2F..%2Fescape.txt`,
      `/storage/v1/object/${PRIVATE}/%2Fetc%2Fpasswd`,
      `/storage/v1/object/${PRIVATE}/${alice.user.id}/a%00b.txt`,
      `/storage/v1/object/${PRIVATE}/${alice.user.id}/%E0%A4%A.txt`,
      `/storage/v1/object/..%2F${PRIVATE}/x.txt`,
    ]
    for (const path of attempts) {
      const response = await fetch(`${api}${path}`, {
        method: 'POST',
        headers: {
          apikey: anonKey,
          Authorization: `Bearer ${alice.session.access_token}`,
          'Content-Type': 'text/plain',
        },
        body: 'escape',
      })
      expect(response.status, path).toBe(400)
      const body = (await response.json()) as { statusCode: string }
      expect(['400', '404'], path).toContain(body.statusCode)
    }
    expect(readdirSync(join(storageDir, '..'))).toEqual(before)
    const viaClient = await alice.sb.storage
      .from(PRIVATE)
      .upload(`${alice.user.id}/../../x.txt`, Buffer.from('x'))
    expect(viaClient.error).toMatchObject({ statusCode: '400' })
  })

  it('honours the bucket size limit (413) and mime types, and lifts the 10 MB body limit for storage', async () => {
    const tooBig = await service.storage
      .from(LIMITED)
      .upload('big.txt', Buffer.alloc(2048, 'a'), { contentType: 'text/plain' })
    expect(tooBig.error).toMatchObject({ status: 413, statusCode: '413' })
    const multipartBig = await service.storage
      .from(LIMITED)
      .upload('big2.txt', new Blob([Buffer.alloc(2048, 'a')], { type: 'text/plain' }))
    expect(multipartBig.error).toMatchObject({ status: 413 })
    const wrongType = await service.storage
      .from(LIMITED)
      .upload('script.js', Buffer.from('alert(1)'), { contentType: 'application/javascript' })
    expect(wrongType.error).toMatchObject({ status: 400, statusCode: '415' })
    const allowed = await service.storage
      .from(LIMITED)
      .upload('ok.txt', Buffer.from('fine'), { contentType: 'text/csv' })
    expect(allowed.error).toBeNull()
    const eleven = Buffer.alloc(11 * 1024 * 1024, 7)
    const large = await service.storage
      .from(PRIVATE)
      .upload('large.bin', eleven, { contentType: 'application/octet-stream' })
    expect(large.error).toBeNull()
    const back = await service.storage.from(PRIVATE).download('large.bin')
    expect(back.data?.size).toBe(eleven.length)
  })

  it('answers forged and expired tokens with InvalidJWT', async () => {
    const forged = await new SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'))
    const response = await fetch(`${api}/storage/v1/bucket`, {
      headers: { apikey: anonKey, Authorization: `Bearer ${forged}` },
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ statusCode: '403', code: 'InvalidJWT' })
  })
})

describe('buckets', () => {
  it('lets the service role manage buckets and nobody else', async () => {
    const name = `gw-admin-${suffix}`
    const created = await service.storage.createBucket(name, { public: false, fileSizeLimit: '1MB' })
    expect(created.data).toEqual({ name })
    expect((await service.storage.createBucket(name)).error).toMatchObject({ statusCode: '409' })
    expect((await service.storage.getBucket(name)).data).toMatchObject({
      id: name,
      public: false,
      file_size_limit: 1048576,
    })
    expect((await service.storage.listBuckets()).data?.some((bucket) => bucket.id === name)).toBe(true)
    expect((await service.storage.updateBucket(name, { public: true })).error).toBeNull()
    expect((await service.storage.getBucket(name)).data?.public).toBe(true)
    await service.storage.from(name).upload('x.txt', Buffer.from('x'))
    expect((await service.storage.deleteBucket(name)).error).toMatchObject({ statusCode: '409' })
    expect((await service.storage.emptyBucket(name)).error).toBeNull()
    expect((await service.storage.deleteBucket(name)).error).toBeNull()
    expect((await service.storage.getBucket(name)).error).toMatchObject({ statusCode: '404' })

    const asUser: SupabaseClient = alice.sb
    expect((await asUser.storage.createBucket(`gw-user-${suffix}`)).error).toMatchObject({
      statusCode: '403',
    })
    expect((await asUser.storage.listBuckets()).data).toEqual([])
  })
})

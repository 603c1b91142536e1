// Faults the product must ride out without blaming the customer: X answering 500, hanging or rate
// limiting while an account is tested (the account keeps its status; the answer says what
// happened), and uploads that cannot be stored (too big, not an image) answered with a clear error.
// The faults that would disturb the suites running beside this one (a database restart, a full
// disk) run in `npm run soak` on their own stack instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anonKey, api } from '../../stack/gateway/test/helpers.ts'
import { customer, db, givePlan, invoke } from '../functions/helpers.ts'
import { PNG } from './tenants.ts'

const xBase = () => {
  const value = process.env.X_BASE_URL
  if (!value) throw new Error('X_BASE_URL is not set: run through `npm test`.')
  return value
}

async function xSandbox<T>(path: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await fetch(`${xBase()}/__sandbox/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`X sandbox ${path}: ${response.status} ${text}`)
  return (text ? JSON.parse(text) : null) as T
}

let owner: Awaited<ReturnType<typeof customer>>
let accountId = ''
let xUsername = ''

beforeAll(async () => {
  owner = await customer('faulty')
  await givePlan(owner.id, 2)
  const x = await xSandbox<{ username: string; cookies: unknown[] }>('accounts', 'POST', {})
  xUsername = x.username
  const created = await invoke(owner.sb, 'api/social-accounts', 'POST', {
    platform: 'twitter',
    username: x.username,
    authData: { cookies: x.cookies },
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  accountId = created.body.id as string
  const tested = await invoke(owner.sb, `api/social-accounts/${accountId}/test`, 'POST')
  expect(tested.status, JSON.stringify(tested.body)).toBe(200)
  // Valid cookies leave the account 'testing' for the runner's full test; no runner runs
  // here, so record its outcome as it would: the account is active before X starts failing.
  await db().query(`update public.social_accounts set status = 'active', flag_reason = null where id = $1`, [
    accountId,
  ])
})

afterAll(async () => {
  if (xUsername)
    await xSandbox(`faults?account=${encodeURIComponent(xUsername)}`, 'DELETE').catch(() => undefined)
})

const accountRow = async () =>
  (await db().query('select status, flag_reason from public.social_accounts where id = $1', [accountId]))
    .rows[0]

// The check loads X's home page with the cookies (the API call that named the account answers 404
// to cookie sessions), so X's failures are injected there. A 429 on that load is the unit test's
// (x-verify.test.ts): the sandbox's page faults answer 500 or hang, as X's pages do.
describe('X failing while an account is tested', () => {
  it('X answering 500: a 502 that says so, and the account stays active', async () => {
    await xSandbox('faults', 'POST', {
      account: xUsername,
      target: 'page',
      mode: 'http_500',
      path: '/home',
      count: 1,
    })
    const result = await invoke(owner.sb, `api/social-accounts/${accountId}/test`, 'POST')
    expect(result.status).toBe(502)
    expect(result.body.error).toMatch(/X could not answer \(HTTP 500\)/)
    expect(await accountRow()).toEqual({ status: 'active', flag_reason: null })
  })

  it('X hanging: the check gives up with a 502 in bounded time, and the account stays active', async () => {
    await xSandbox('faults', 'POST', {
      account: xUsername,
      target: 'page',
      mode: 'hang',
      path: '/home',
      count: 1,
    })
    const started = Date.now()
    const result = await invoke(owner.sb, `api/social-accounts/${accountId}/test`, 'POST')
    expect(result.status).toBe(502)
    expect(Date.now() - started).toBeLessThan(25_000)
    expect(await accountRow()).toEqual({ status: 'active', flag_reason: null })
    // Once X is back, the next check passes.
    await xSandbox(`faults?account=${encodeURIComponent(xUsername)}`, 'DELETE')
    expect((await invoke(owner.sb, `api/social-accounts/${accountId}/test`, 'POST')).status).toBe(200)
  }, 40_000)
})

describe('uploads that cannot be stored', () => {
  const upload = (path: string, body: Buffer, type: string) =>
    fetch(`${api}/storage/v1/object/avatars/${path}`, {
      method: 'POST',
      headers: {
        apikey: anonKey,
        Authorization: `Bearer ${owner.session.access_token}`,
        'Content-Type': type,
        'x-upsert': 'true',
      },
      body: new Uint8Array(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }))

  it('an avatar over 5 MB is refused with 413 and a message, and nothing is stored', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 1)
    const result = await upload(`${owner.id}/avatar.png`, big, 'image/png')
    expect(result.status).toBe(413)
    expect(String(result.body.message)).toMatch(/size|large|exceed/i)
    const { rows } = await db().query(
      `select 1 from storage.objects where bucket_id = 'avatars' and name like $1`,
      [`${owner.id}/%`],
    )
    expect(rows).toEqual([])
  })

  it('a file that is not an image is refused by its type, whatever its name', async () => {
    for (const type of ['text/html', 'application/javascript', 'image/svg+xml', 'application/octet-stream']) {
      const result = await upload(`${owner.id}/avatar.png`, Buffer.from('<script>alert(1)</script>'), type)
      expect(result.status, type).toBe(400)
      expect(result.body, type).toMatchObject({ statusCode: '415' })
    }
  })

  it('bytes that lie about being an image are only ever served back as that image type', async () => {
    const stored = await upload(
      `${owner.id}/avatar.png`,
      Buffer.from('<html><script>alert(1)</script></html>'),
      'image/png',
    )
    expect(stored.status).toBe(200)
    const served = await fetch(`${api}/storage/v1/object/public/avatars/${owner.id}/avatar.png`)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect((await upload(`${owner.id}/avatar.png`, PNG, 'image/png')).status).toBe(200)
  })
})

import assert from 'node:assert/strict'
import { errorResponse, HttpError } from './errors.ts'
import {
  DEFAULT_MAX_BODY_BYTES,
  parseBody,
  parseId,
  parseQuery,
  parseWith,
  readJson,
  z,
} from './validation.ts'

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request('http://x/functions/v1/api/social-accounts', { method: 'POST', body, headers })

async function statusAndError(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise
  } catch (error) {
    const response = errorResponse(error, () => {})
    return [response.status, (await response.json()).error]
  }
  throw new Error('expected a rejection')
}

const account = z.strictObject({
  platform: z.enum(['twitter', 'instagram']),
  username: z.string().trim().min(1, 'Please fill in all required account details'),
  dailyLimit: z.number().int().min(1).max(500).default(50),
  proxyUrl: z.url().nullable().optional(),
  sequences: z
    .array(z.strictObject({ message: z.string().min(1) }))
    .min(1)
    .optional(),
})

Deno.test('valid bodies parse with defaults applied', async () => {
  const value = await parseBody(post(JSON.stringify({ platform: 'twitter', username: ' ann ' })), account)
  assert.deepEqual(value, { platform: 'twitter', username: 'ann', dailyLimit: 50 })
})

Deno.test('a schema’s own message is kept exactly (the product texts)', async () => {
  const [status, error] = await statusAndError(
    parseBody(post(JSON.stringify({ platform: 'twitter', username: '  ' })), account),
  )
  assert.equal(status, 400)
  assert.equal(error, 'Please fill in all required account details')
})

Deno.test('zod’s own messages become "<field> must …" sentences, every issue listed', () => {
  const cases: Array<[unknown, string]> = [
    [{ username: 'a' }, 'platform is required'],
    [{ platform: 'linkedin', username: 'a' }, 'platform must be one of: twitter, instagram'],
    [{ platform: 'twitter', username: 'a', dailyLimit: 501 }, 'dailyLimit must be at most 500'],
    [{ platform: 'twitter', username: 'a', dailyLimit: '5' }, 'dailyLimit must be a number'],
    [{ platform: 'twitter', username: 'a', proxyUrl: 'nope' }, 'proxyUrl must be a valid URL'],
    [
      { platform: 'twitter', username: 'a', sequences: [{ message: '' }] },
      'sequences[0].message must not be empty',
    ],
    [{ platform: 'twitter', username: 'a', sequences: [] }, 'sequences must have at least 1 item'],
    [{ platform: 'twitter', username: 'a', admin: true }, 'Unknown field: admin'],
    ['just a string', 'Request body must be an object'],
  ]
  for (const [input, message] of cases) {
    try {
      parseWith(account, input)
      assert.fail(`accepted ${JSON.stringify(input)}`)
    } catch (error) {
      assert.ok(error instanceof HttpError)
      assert.equal(error.status, 400)
      assert.equal(error.message, message)
    }
  }
  try {
    parseWith(account, {})
  } catch (error) {
    assert.ok(error instanceof HttpError)
    assert.deepEqual(error.details?.issues, [
      { path: 'platform', message: 'platform is required' },
      { path: 'username', message: 'username is required' },
    ])
  }
})

Deno.test('malformed, empty and non-UTF-8 bodies are 400s', async () => {
  assert.deepEqual(await statusAndError(readJson(post('{"platform": "twitter",'))), [
    400,
    'Request body must be valid JSON',
  ])
  assert.deepEqual(await statusAndError(readJson(post(''))), [400, 'Request body is required'])
  assert.deepEqual(await statusAndError(readJson(post(null))), [400, 'Request body is required'])
  assert.deepEqual(await statusAndError(readJson(post(new Uint8Array([0xff, 0xfe, 0x7b])))), [
    400,
    'Request body must be UTF-8 text',
  ])
})

Deno.test('oversize bodies are 413, by declared length or by what actually arrives', async () => {
  const big = JSON.stringify({ username: 'x'.repeat(DEFAULT_MAX_BODY_BYTES) })
  assert.deepEqual(await statusAndError(readJson(post(big))), [
    413,
    'Request body is too large (limit 64 KB)',
  ])
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)))
      controller.close()
    },
  })
  const undeclared = new Request('http://x/', { method: 'POST', body: stream })
  assert.equal((await statusAndError(readJson(undeclared, { maxBytes: 10 * 1024 })))[0], 413)
  assert.deepEqual(await readJson(post('{"ok":true}'), { maxBytes: 11 }), { ok: true })
})

Deno.test('query strings and path ids', () => {
  const query = z.strictObject({
    level: z.enum(['info', 'error']).optional(),
    limit: z.coerce.number().int().max(100).default(100),
  })
  assert.deepEqual(parseQuery(new URL('http://x/admin/logs?level=error&limit=20'), query), {
    level: 'error',
    limit: 20,
  })
  assert.throws(
    () => parseQuery(new URL('http://x/admin/logs?limit=500'), query),
    /limit must be at most 100/,
  )
  assert.equal(parseId('0B1E7F0A-5A43-4D0F-9C52-3C2B1F1E2D3C'), '0b1e7f0a-5a43-4d0f-9c52-3c2b1f1e2d3c')
  assert.throws(
    () => parseId("1' or '1'='1", 'Campaign not found'),
    (error: unknown) =>
      error instanceof HttpError && error.status === 404 && error.message === 'Campaign not found',
  )
  assert.throws(
    () => parseId(undefined),
    (error: unknown) => error instanceof HttpError && error.status === 404,
  )
})

Deno.test('a NUL character anywhere in a query or body is a 400 naming the field, never a database error', async () => {
  const query = z.strictObject({ status: z.string().max(20).optional() })
  assert.throws(
    () => parseQuery(new URL('http://x/api/social-accounts?status=%00'), query),
    (error: unknown) =>
      error instanceof HttpError &&
      error.status === 400 &&
      error.message === 'status must not contain NUL characters',
  )
  assert.deepEqual(
    await statusAndError(
      parseBody(
        post(JSON.stringify({ platform: 'twitter', username: 'ok', sequences: [{ message: 'hi\u0000' }] })),
        account,
      ),
    ),
    [400, 'sequences[0].message must not contain NUL characters'],
  )
  assert.deepEqual(await statusAndError(parseBody(post(JSON.stringify({ 'a\u0000': 1 })), account)), [
    400,
    'a\u0000 must not contain NUL characters',
  ])
})

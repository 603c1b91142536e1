// The account body of POST /social-accounts and /social-accounts/validate-cookies: the product's texts
// for what is missing, every cookie format users paste, and the credentials that get sealed.
import assert from 'node:assert/strict'
import { HttpError } from '../_shared/errors.ts'
import { ACCOUNT_MESSAGES, readAccountInput, readCookiesInput } from './account-input.ts'

const AUTH = 'a'.repeat(40)
const CT0 = 'b'.repeat(64)
const extensionExport = [
  {
    name: 'auth_token',
    value: AUTH,
    domain: '.x.com',
    path: '/',
    expirationDate: 4102444800.5,
    hostOnly: false,
    httpOnly: true,
    secure: true,
    session: false,
    storeId: '0',
    sameSite: 'no_restriction',
  },
  {
    name: 'ct0',
    value: CT0,
    domain: '.x.com',
    path: '/',
    expirationDate: 4102444800,
    hostOnly: false,
    httpOnly: false,
    secure: true,
    session: false,
    storeId: '0',
    sameSite: 'lax',
  },
  {
    name: 'twid',
    value: 'u%3D1234567890',
    domain: '.x.com',
    path: '/',
    session: true,
    sameSite: 'unspecified',
  },
  { name: 'other', value: 'x', domain: '.example.com', path: '/' },
]

function refusal(run: () => unknown): [number, string] {
  try {
    run()
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error))
    return [error.status, error.message]
  }
  throw new Error('expected a refusal')
}

Deno.test('missing details give the texts of product.md §5', () => {
  assert.deepEqual(
    refusal(() => readAccountInput({ platform: 'twitter', username: '  ' })),
    [400, ACCOUNT_MESSAGES.missingDetails],
  )
  assert.deepEqual(
    refusal(() => readAccountInput({ username: 'ann' })),
    [400, ACCOUNT_MESSAGES.missingDetails],
  )
  assert.deepEqual(
    refusal(() => readAccountInput({ platform: 'instagram', username: 'ann', authData: {} })),
    [400, 'Password is required for Instagram accounts'],
  )
  assert.deepEqual(
    refusal(() => readAccountInput({ platform: 'twitter', username: 'ann', authData: { cookies: [] } })),
    [400, 'Cookies are required for Twitter accounts'],
  )
  assert.deepEqual(
    refusal(() => readAccountInput({ platform: 'twitter', username: 'ann', authData: null })),
    [400, 'Cookies are required for Twitter accounts'],
  )
})

Deno.test('wrong values are named plainly', () => {
  const base = { platform: 'instagram', username: 'ann', authData: { password: 'pw' } }
  assert.deepEqual(
    refusal(() => readAccountInput({ ...base, username: 'ann lee' })),
    [400, ACCOUNT_MESSAGES.username],
  )
  assert.deepEqual(
    refusal(() => readAccountInput({ ...base, proxyUrl: 'not a proxy' })),
    [400, ACCOUNT_MESSAGES.proxy],
  )
  assert.deepEqual(
    refusal(() => readAccountInput({ ...base, authData: { password: 'pw', secretKey: 'not base32!' } })),
    [400, ACCOUNT_MESSAGES.secretKey],
  )
  assert.deepEqual(
    refusal(() => readAccountInput({ ...base, platform: 'linkedin' })),
    [400, 'This platform cannot be connected yet'],
  )
  assert.deepEqual(
    refusal(() =>
      readAccountInput({
        platform: 'twitter',
        username: 'ann',
        authData: { cookies: extensionExport, chatPasscode: '12a4' },
      }),
    ),
    [400, ACCOUNT_MESSAGES.passcode],
  )
  assert.deepEqual(
    refusal(() => readAccountInput('just text')),
    [400, 'Request body must be an object'],
  )
})

Deno.test('an Instagram account: username without @, password and a normalised 2FA secret', () => {
  const input = readAccountInput({
    platform: 'Instagram',
    username: ' @ann.lee ',
    authData: { password: 'hunter2', secretKey: 'jbsw y3dp ehpk 3pxp' },
    proxyUrl: 'user:pass@proxy.example.com:8080',
  })
  assert.deepEqual(input, {
    platform: 'instagram',
    username: 'ann.lee',
    // the table keeps host and port; the login is sealed with the credentials
    proxyUrl: 'proxy.example.com:8080',
    proxy: { scheme: 'http', host: 'proxy.example.com', port: 8080, username: 'user', password: 'pass' },
    credentials: {
      v: 1,
      platform: 'instagram',
      password: 'hunter2',
      totpSecret: 'JBSWY3DPEHPK3PXP',
      proxy: { username: 'user', password: 'pass' },
    },
  })
  const without = readAccountInput({
    platform: 'instagram',
    username: 'ann',
    authData: { password: 'pw', secretKey: null },
  })
  assert.equal(without.credentials.platform === 'instagram' && without.credentials.totpSecret, null)
  assert.equal(without.proxyUrl, null)
})

Deno.test('an X account: the extension export becomes browser cookies, other sites dropped, passcode kept', () => {
  const input = readAccountInput({
    platform: 'twitter',
    username: 'ann_x',
    authData: { cookies: extensionExport, chatPasscode: '0042' },
    proxyUrl: null,
  })
  assert.equal(input.credentials.platform, 'twitter')
  if (input.credentials.platform !== 'twitter') return
  assert.equal(input.credentials.chatPasscode, '0042')
  assert.deepEqual(
    input.credentials.cookies.map((c) => c.name),
    ['auth_token', 'ct0', 'twid'],
  )
  assert.deepEqual(input.credentials.cookies[0], {
    name: 'auth_token',
    value: AUTH,
    domain: '.x.com',
    path: '/',
    expires: 4102444800,
    httpOnly: true,
    secure: true,
    sameSite: 'None',
  })
})

Deno.test('every pasted cookie format is read: {cookies}, a raw header, a JSON string', () => {
  for (const cookies of [
    { cookies: extensionExport },
    `auth_token=${AUTH}; ct0=${CT0}`,
    JSON.stringify(extensionExport),
  ]) {
    const parsed = readCookiesInput({ platform: 'twitter', cookies })
    assert.equal(parsed.authToken, AUTH)
    assert.equal(parsed.csrfToken, CT0)
  }
  assert.equal(readCookiesInput({ platform: 'x', cookies: extensionExport }).userId, '1234567890')
})

Deno.test('cookies that make no session are refused with the reason', () => {
  const [status, message] = refusal(() =>
    readCookiesInput({ platform: 'twitter', cookies: [extensionExport[1]] }),
  )
  assert.equal(status, 400)
  assert.match(message, /auth_token and ct0 \(auth_token missing; ct0 alone is not a session\)/)
  assert.match(
    refusal(() => readCookiesInput({ platform: 'twitter', cookies: '[{"name":' }))[1],
    /do not parse/,
  )
  assert.deepEqual(
    refusal(() => readCookiesInput({ platform: 'instagram', cookies: 'a=b' })),
    [400, ACCOUNT_MESSAGES.cookiesOnlyForX],
  )
  assert.deepEqual(
    refusal(() => readCookiesInput({ platform: 'twitter' })),
    [400, ACCOUNT_MESSAGES.cookiesRequired],
  )
})

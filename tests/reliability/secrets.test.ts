// Secrets at rest and in flight: after a customer signs up and connects an X account (cookies and a
// chat passcode) and an Instagram account (password and 2FA secret) through the product API, none
// of those values appears in a full pg_dump of the database, in any log the stack writes (the
// system_logs table, the gateway's, the functions', the sandboxes', Postgres's), or in any answer
// the product gives the customer or an operator.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { client, fakeIp } from '../../stack/gateway/test/helpers.ts'
import { stackConfig } from '../../stack/src/config.ts'
import { PG_BIN } from '../../stack/src/system.ts'
import { db, givePlan, invoke, xCookies } from '../functions/helpers.ts'
import { call } from './probes.ts'

const hex = (n: number) => randomBytes(n).toString('hex')
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
const secrets = {
  password: `Sign-in-${hex(10)}`,
  authToken: hex(20),
  ct0: hex(40),
  chatPasscode: String(1000 + (randomBytes(2).readUInt16BE() % 9000)),
  instagramPassword: `Insta-${hex(10)}`,
  totpSecret: Array.from(randomBytes(32), (b) => BASE32[b % 32]).join(''),
}
const replies: string[] = []
let userId = ''
let accounts: string[] = []

/**
 * Which secrets `text` shows. The passcode is four digits, which any dump contains somewhere by
 * chance, so it counts only next to a passcode-like key.
 */
function leaked(text: string): string[] {
  return Object.entries(secrets)
    .filter(([name, value]) =>
      name === 'chatPasscode'
        ? new RegExp(`passcode[^0-9a-z]{0,6}${value}`, 'i').test(text)
        : text.includes(value),
    )
    .map(([name]) => name)
}

beforeAll(async () => {
  const email = `secrets-${hex(4)}@reliability.test`
  const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
  const signUp = await sb.auth.signUp({ email, password: secrets.password })
  expect(signUp.error).toBeNull()
  userId = signUp.data.user?.id ?? ''
  await givePlan(userId, 3)
  const signIn = await sb.auth.signInWithPassword({ email, password: secrets.password })
  expect(signIn.error).toBeNull()
  const x = await invoke(sb, 'api/social-accounts', 'POST', {
    platform: 'twitter',
    username: `secret_x_${hex(3)}`,
    authData: { cookies: xCookies(secrets.authToken, secrets.ct0), chatPasscode: secrets.chatPasscode },
  })
  expect(x.status, JSON.stringify(x.body)).toBe(201)
  const ig = await invoke(sb, 'api/social-accounts', 'POST', {
    platform: 'instagram',
    username: `secret_ig_${hex(3)}`,
    authData: { password: secrets.instagramPassword, secretKey: secrets.totpSecret },
  })
  expect(ig.status, JSON.stringify(ig.body)).toBe(201)
  accounts = [x.body.id as string, ig.body.id as string]
  const validated = await invoke(sb, 'api/social-accounts/validate-cookies', 'POST', {
    platform: 'twitter',
    cookies: xCookies(secrets.authToken, secrets.ct0),
  })
  replies.push(JSON.stringify(x.body), JSON.stringify(ig.body), JSON.stringify(validated.body))
  const token = signIn.data.session?.access_token ?? ''
  for (const path of [
    '/functions/v1/api/social-accounts',
    '/functions/v1/api/user/credits',
    `/functions/v1/api/social-accounts/${accounts[0]}/test`,
  ])
    replies.push((await call(path, { token, method: path.endsWith('/test') ? 'POST' : 'GET' })).text)
  for (const path of [
    '/rest/v1/social_accounts?select=*',
    '/rest/v1/social_account_credentials?select=*',
    '/auth/v1/user',
  ])
    replies.push((await call(path, { token })).text)
  const admin = await client().auth.signInWithPassword({
    email: 'admin@reachflow.test',
    password: 'admin-password',
  })
  const adminToken = admin.data.session?.access_token ?? ''
  for (const path of [
    `/functions/v1/admin/social-accounts/${accounts[0]}`,
    `/functions/v1/admin/social-accounts/${accounts[1]}`,
    `/functions/v1/admin/users/${userId}`,
    '/functions/v1/admin/logs',
  ])
    replies.push((await call(path, { token: adminToken })).text)
}, 120_000)

describe('secrets', () => {
  it('the credentials are stored (sealed) at all, so the checks below mean something', async () => {
    const { rows } = await db().query(
      'select key_id, length(ciphertext) as n from public.social_account_credentials where account_id = any($1::uuid[])',
      [accounts],
    )
    expect(rows).toHaveLength(2)
    for (const row of rows) expect(row.n).toBeGreaterThan(40)
  })

  it('a full pg_dump of the database holds none of them in plain text', () => {
    const config = stackConfig()
    const dump = spawnSync(
      `${PG_BIN}/pg_dump`,
      ['-h', config.host, '-p', String(config.ports.db), '-U', 'postgres', '--no-owner', 'postgres'],
      { env: { ...process.env, PGPASSWORD: 'postgres' }, maxBuffer: 1024 * 1024 * 1024, encoding: 'utf8' },
    )
    expect(dump.status, dump.stderr).toBe(0)
    expect(dump.stdout).toContain('social_account_credentials')
    expect(dump.stdout.length).toBeGreaterThan(100_000)
    expect(leaked(dump.stdout)).toEqual([])
  })

  it('no log holds them: system_logs, and every log file of the stack', async () => {
    const { rows } = await db().query(
      `select coalesce(string_agg(message || ' ' || coalesce(metadata::text, ''), E'\\n'), '') as text from public.system_logs`,
    )
    expect(leaked(rows[0]?.text ?? '')).toEqual([])
    const config = stackConfig()
    const files = [
      ...readdirSync(config.logDir).map((f) => join(config.logDir, f)),
      join(config.dataDir, 'server.log'),
    ]
    expect(files.length).toBeGreaterThan(3)
    for (const file of files) expect(leaked(readFileSync(file, 'utf8')), file).toEqual([])
  })

  it('no answer to the customer or to an operator holds them', () => {
    expect(replies.length).toBeGreaterThan(8)
    for (const reply of replies) expect(leaked(reply), reply.slice(0, 200)).toEqual([])
  })
})

// Cookie validation and the account test against the X sandbox, through the gateway: cookies as a
// browser extension exports them, as {cookies: [...]}, or as a raw header are checked over HTTP with
// what X shows a plain request (verify_credentials answers 404 to cookie sessions since July 2026):
// "not rejected" at best, never "valid"; signed-out and locked sessions are refused with what to do;
// a stored account stays "testing" for the runner's browser test, and is in error once X signs it out.
import { beforeAll, describe, expect, it } from 'vitest'
import { SandboxAdmin, sandboxUrl, type XSandboxAccount } from '../../runner/test/helpers/sandbox.ts'
import { customer, givePlan, invoke, type Json } from './helpers.ts'

let x: SandboxAdmin
let buyer: Awaited<ReturnType<typeof customer>>

beforeAll(async () => {
  x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
  buyer = await customer('xcookies')
  await givePlan(buyer.id, 5)
})

const validate = (cookies: unknown) =>
  invoke(buyer.sb, 'api/social-accounts/validate-cookies', 'POST', { platform: 'twitter', cookies })

describe('X cookies against the X sandbox', () => {
  it('says a live session in every pasted format was not rejected, and leaves the proof to the browser test', async () => {
    const account = await x.createAccount<XSandboxAccount>()
    for (const cookies of [
      account.cookies,
      { cookies: account.cookies },
      account.cookieHeader,
      JSON.stringify(account.cookies),
    ]) {
      expect(await validate(cookies)).toEqual({
        status: 200,
        body: {
          valid: null,
          rejected: false,
          message: expect.stringMatching(
            /^X did not reject these cookies\. Only signing in with them in a browser/,
          ),
        },
      })
    }
  })

  it('refuses signed-out and locked sessions, and cookies that make no session', async () => {
    const expired = await x.createAccount<XSandboxAccount>({ state: 'expired' })
    const signedOut = await validate(expired.cookies)
    expect(signedOut.status).toBe(422)
    expect(signedOut.body).toMatchObject({ valid: false, reason: 'expired' })
    expect(signedOut.body.error).toMatch(/no longer signed in to X/)

    const locked = await x.createAccount<XSandboxAccount>({ state: 'locked' })
    expect((await validate(locked.cookies)).body).toMatchObject({
      reason: 'locked',
      error: expect.stringMatching(/locked/),
    })

    const active = await x.createAccount<XSandboxAccount>()
    const onlyCt0 = (active.cookies as { name: string }[]).filter((c) => c.name !== 'auth_token')
    const missing = await validate(onlyCt0)
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatch(/auth_token missing; ct0 alone is not a session/)
    expect((await validate('')).body).toEqual({ error: 'Cookies are required for Twitter accounts' })
  })

  it('a connected account whose cookies X did not reject is tested by the runner (not Active on the cookies alone), then error once X signs it out', async () => {
    const account = await x.createAccount<XSandboxAccount>()
    const created = await invoke(buyer.sb, 'api/social-accounts', 'POST', {
      platform: 'twitter',
      username: account.username,
      authData: { cookies: account.cookies, chatPasscode: account.passcode },
      proxyUrl: null,
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'testing', has_chat_passcode: true })
    const id = created.body.id as string

    const tested = await invoke(buyer.sb, `api/social-accounts/${id}/test`, 'POST')
    expect(tested).toMatchObject({ status: 200, body: { status: 'testing', connected: false } })
    expect(tested.body.message).toMatch(
      /^X did not reject the cookies\. Signing in with them and opening X Chat now/,
    )

    await x.patchAccount(account.username, { state: 'expired' })
    const failed = await invoke(buyer.sb, `api/social-accounts/${id}/test`, 'POST')
    expect(failed.status).toBe(422)
    const accounts = await invoke<Json[]>(buyer.sb, 'api/social-accounts')
    expect(accounts.body.find((a) => a.id === id)).toMatchObject({ status: 'error', connected: false })
  })
})

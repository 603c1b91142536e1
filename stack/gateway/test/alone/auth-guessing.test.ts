// Distributed guessing of a recovery code, as an attacker with many source addresses behind a proxy
// the gateway trusts would try it: the link's token is sha224(e-mail + code), so anyone can compute
// the hash of any code and send it as `token_hash`, as the link's `token`, or send the e-mail and
// code themselves. Each address stays far below the per-IP limit. Misses of all three forms count
// towards one flood budget (stack/gateway/src/auth/guessing.ts); once it is spent, an address that
// misses is turned away before its next guess is looked at, so even a guesser that now holds the
// right hash gets nothing, while the real owner of a code or link still signs in.
//
// Runs alone: it spends the test gateway's shared flood budget. The test instance trusts loopback
// as a proxy (gatewayEnv), so X-Forwarded-For names the client here as a real proxy's would.
import { createHash, randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { gatewayEnv } from '../../../src/services.ts'
import { rateLimitSettings } from '../../src/auth/rate-limit.ts'
import { anonKey, api, client, fakeIp, signedUpUser } from '../helpers.ts'

const limits = rateLimitSettings(gatewayEnv(true))
const sha224 = (text: string) => createHash('sha224').update(text).digest('hex')

interface Mail {
  text: string
  links: string[]
}

async function recoveryMail(email: string): Promise<{ code: string; hash: string; link: string }> {
  expect(
    (await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.resetPasswordForEmail(email)).error,
  ).toBeNull()
  for (let poll = 0; poll < 100; poll++) {
    const mails = (await (
      await fetch(`${api}/_outbox.json?to=${encodeURIComponent(email)}`)
    ).json()) as Mail[]
    const mail = mails[0]
    if (mail) {
      const link = mail.links[0] ?? ''
      const code = /enter the code: (\d+)/.exec(mail.text)?.[1] ?? ''
      return { code, hash: new URL(link).searchParams.get('token') ?? '', link }
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no recovery mail for ${email}`)
}

/** A wrong code for `email`, of the configured length. */
function wrongCode(right: string): string {
  for (;;) {
    const guess = String(randomInt(0, 10 ** limits.codes.length)).padStart(limits.codes.length, '0')
    if (guess !== right) return guess
  }
}

type Form = 'token_hash' | 'link' | 'code'

/** One guess in one of the three forms; 'missed' (looked at, wrong), 'refused' (429) or the status. */
async function guess(ip: string, form: Form, email: string, code: string): Promise<string> {
  if (form === 'link') {
    const response = await fetch(
      `${api}/auth/v1/verify?type=recovery&token=${sha224(email + code)}&redirect_to=${encodeURIComponent(api)}`,
      { redirect: 'manual', headers: { 'X-Forwarded-For': ip } },
    )
    if (response.status === 429) return 'refused'
    const location = response.headers.get('location') ?? ''
    return response.status === 303 && location.includes('error_code=otp_expired')
      ? 'missed'
      : `link ${response.status}`
  }
  const body =
    form === 'token_hash'
      ? { type: 'recovery', token_hash: sha224(email + code) }
      : { type: 'recovery', email, token: code }
  const response = await fetch(`${api}/auth/v1/verify`, {
    method: 'POST',
    headers: { apikey: anonKey, 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify(body),
  })
  if (response.status === 429) return 'refused'
  return response.status === 403 ? 'missed' : `${form} ${response.status}`
}

describe('guessing recovery codes from many addresses', () => {
  it('turns the guessers away once the flood budget is spent, whatever form they use', async () => {
    const victim = await signedUpUser('flood-victim')
    const { code, hash } = await recoveryMail(victim.email)
    expect(code).toHaveLength(limits.codes.length)
    expect(hash).toBe(sha224(victim.email + code))

    // 120 addresses, each guessing in turn (as a per-address script would), in parallel with each
    // other, enough guesses in all to spend the budget twice over; each address stays far below
    // the per-IP verification limit.
    const addresses = Array.from(
      { length: 120 },
      (_, index) => `10.${200 + (index % 50)}.${index}.${randomInt(1, 254)}`,
    )
    const perAddress = Math.ceil((2 * limits.guesses.globalMisses) / addresses.length)
    expect(perAddress).toBeLessThan(limits.verifyPerIp)
    const forms: Form[] = ['token_hash', 'link', 'code']
    const outcomes = (
      await Promise.all(
        addresses.map(async (ip, index) => {
          const results: string[] = []
          for (let n = 0; n < perAddress; n++) {
            const form = forms[(index + n) % 3] as Form
            // Codes are guessed for many accounts at once (one miss each), so only the global
            // budget can stop them; hashes and links all aim at the victim.
            const target = form === 'code' ? `other-${index}-${n}@gateway.test` : victim.email
            results.push(await guess(ip, form, target, wrongCode(code)))
          }
          return results
        }),
      )
    ).flat()
    const missed = outcomes.filter((o) => o === 'missed').length
    const refused = outcomes.filter((o) => o === 'refused').length
    expect(missed + refused).toBe(outcomes.length)
    // Every guess before the budget ran out was looked at; after it, each address had at most
    // one more before it was turned away.
    expect(refused).toBeGreaterThan(0)
    expect(missed).toBeLessThanOrEqual(limits.guesses.globalMisses + addresses.length)

    // A guesser that now holds the right hash gets nothing: its guess is not even looked at.
    for (const ip of addresses.slice(0, 3)) {
      expect(await guess(ip, 'token_hash', victim.email, code)).toBe('refused')
    }
    // The flood is still on: a new address is turned away after its first miss.
    const newcomer = fakeIp()
    expect(await guess(newcomer, 'token_hash', victim.email, wrongCode(code))).toBe('missed')
    expect(await guess(newcomer, 'link', victim.email, wrongCode(code))).toBe('refused')

    // The victim, from their own address, still recovers with the right code.
    const owner = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.verifyOtp({
      email: victim.email,
      token: code,
      type: 'recovery',
    })
    expect(owner.error).toBeNull()
    expect(owner.data.session?.user.email).toBe(victim.email)
  })

  it('lets real users recover with their link or token hash during the flood', async () => {
    const flooding = fakeIp()
    expect(await guess(flooding, 'token_hash', 'someone@gateway.test', wrongCode(''))).toBe('missed')
    expect(await guess(flooding, 'token_hash', 'someone@gateway.test', wrongCode(''))).toBe('refused')

    const withLink = await signedUpUser('flood-link')
    const { link } = await recoveryMail(withLink.email)
    const opened = await fetch(link, { redirect: 'manual', headers: { 'X-Forwarded-For': fakeIp() } })
    expect(opened.status).toBe(303)
    const fragment = new URLSearchParams(new URL(opened.headers.get('location') ?? '').hash.slice(1))
    expect(fragment.get('type')).toBe('recovery')
    expect(fragment.get('access_token')).toBeTruthy()

    const withHash = await signedUpUser('flood-hash')
    const { hash } = await recoveryMail(withHash.email)
    const verified = await client({ headers: { 'X-Forwarded-For': fakeIp() } }).auth.verifyOtp({
      token_hash: hash,
      type: 'recovery',
    })
    expect(verified.error).toBeNull()
    expect(verified.data.session?.user.email).toBe(withHash.email)
  })
})

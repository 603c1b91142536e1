// The runner's pure rules: message composition (spintax, {name}, {username}, the no-first-name
// message, follow-up steps), gaps between DMs spread over the window, the reduced rate after a stop
// signal, opt-out words, scraping filters, secrets kept out of logs, and job data checks.
import { describe, expect, it } from 'vitest'
import { isOptOut } from '../src/inbox/replies.ts'
import { readJobData } from '../src/jobs/queues.ts'
import { redact } from '../src/log.ts'
import type { ScrapedProfile } from '../src/platforms/types.ts'
import { filterReason, readFilters } from '../src/scraping/filters.ts'
import { composeMessage, firstNameOf, spin } from '../src/sending/compose.ts'
import { MIN_GAP_MS, nextGapMs, rateFactor } from '../src/sending/pacing.ts'

/** A deterministic sequence of "random" numbers. */
const sequence = (...values: number[]) => {
  let i = 0
  return () => values[i++ % values.length] ?? 0
}

describe('composing messages', () => {
  it('spins every {a|b} group, nested ones too, and leaves other braces alone', () => {
    expect(spin('{Hi|Hello} {name}, {quick|short} one', sequence(0.9, 0.1))).toBe('Hello {name}, quick one')
    // inner groups are spun first
    expect(spin('{Hey {there|you}|Hi}!', sequence(0.6, 0.1))).toBe('Hey you!')
    expect(spin('{Hey {there|you}|Hi}!', sequence(0.1, 0.6))).toBe('Hi!')
    expect(spin('a {b} {unclosed|x', sequence(0))).toBe('a {b} {unclosed|x')
    expect(spin('{|empty} ok', sequence(0))).toBe(' ok')
  })

  it('fills {name} with the first name and {username} with the handle', () => {
    const lead = { username: 'ada_l', profile: { display_name: 'Ada Lovelace' } }
    expect(composeMessage({ messages: ['Hi {name} (@{USERNAME})'] }, 0, lead)).toBe('Hi Ada (@ada_l)')
    expect(firstNameOf({ full_name: '  Élodie-Anne  Martin' })).toBe('Élodie-Anne')
    expect(firstNameOf({ display_name: '🚀 123' })).toBeNull()
  })

  it('uses the no-first-name message when the name is missing, else the handle', () => {
    const nameless = { username: 'ghost', profile: {} }
    const sequences = { messages: ['Hi {name}!'], noFirstnameMessage: 'Hi there!' }
    expect(composeMessage(sequences, 0, nameless)).toBe('Hi there!')
    expect(composeMessage({ messages: ['Hi {name}!'] }, 0, nameless)).toBe('Hi ghost!')
    // a variant without {name} does not need the fallback
    expect(composeMessage({ messages: ['Hello!'], noFirstnameMessage: 'Hi there!' }, 0, nameless)).toBe(
      'Hello!',
    )
  })

  it('picks among the non-blank first messages and returns follow-ups by step', () => {
    const sequences = {
      messages: ['', 'First A', '  ', 'First B'],
      followUpEnabled: true,
      followUpMessages: ['Bump 1', '', 'Bump 2'],
    }
    const lead = { username: 'x', profile: {} }
    expect(composeMessage(sequences, 0, lead, sequence(0))).toBe('First A')
    expect(composeMessage(sequences, 0, lead, sequence(0.99))).toBe('First B')
    expect(composeMessage(sequences, 1, lead)).toBe('Bump 1')
    expect(composeMessage(sequences, 2, lead)).toBe('Bump 2')
    expect(composeMessage(sequences, 3, lead)).toBeNull()
    expect(composeMessage({ ...sequences, followUpEnabled: false }, 1, lead)).toBeNull()
  })
})

describe('pacing', () => {
  const at = (iso: string) => new Date(iso)
  it('spreads what is left over what remains of the window, randomly around the even share', () => {
    const window = { now: at('2026-01-05T09:00:00Z'), windowEnd: at('2026-01-05T17:00:00Z'), rateFactor: 1 }
    const share = (8 * 3_600_000) / 48
    expect(nextGapMs({ ...window, left: 48 }, 1, () => 0)).toBe(share * 0.5)
    expect(nextGapMs({ ...window, left: 48 }, 1, () => 0.999)).toBeCloseTo(share * 1.499, -2)
    // never closer than the minimum gap, and scaled by the pacing factor
    expect(nextGapMs({ ...window, left: 10_000 }, 1, () => 0)).toBe(MIN_GAP_MS)
    expect(nextGapMs({ ...window, left: 48 }, 0.01, () => 0)).toBe(share * 0.5 * 0.01)
  })

  it('sends more slowly while the account recovers from a stop signal', () => {
    expect(rateFactor(0.8)).toBe(1)
    expect(rateFactor(0.25)).toBe(0.5)
    expect(rateFactor(0.05)).toBe(0.25)
    const window = { now: at('2026-01-05T09:00:00Z'), windowEnd: at('2026-01-05T17:00:00Z'), left: 48 }
    expect(nextGapMs({ ...window, rateFactor: 0.5 }, 1, () => 0.5)).toBe(
      2 * nextGapMs({ ...window, rateFactor: 1 }, 1, () => 0.5),
    )
  })
})

describe('replies and filters', () => {
  it("follows the customer's own opt-out words", () => {
    const words = { anywhere: ['remove me', 'not interested'], atStart: ['no thanks'] }
    expect(isOptOut('Please remove me from your list', words)).toBe(true)
    expect(isOptOut('Honestly not interested.', words)).toBe(true)
    expect(isOptOut('No thanks!', words)).toBe(true)
    expect(isOptOut('No thanks for now, but tell me more later', words)).toBe(false)
    // the defaults no longer apply once the customer replaced them
    expect(isOptOut('stop', words)).toBe(false)
    expect(isOptOut('unsubscribe', words)).toBe(false)
  })

  it('recognises opt-outs without catching ordinary replies', () => {
    for (const text of ['stop', 'STOP!', 'Stop please', 'Please unsubscribe me', 'unsubscribe'])
      expect(isOptOut(text)).toBe(true)
    for (const text of [
      'Sure, tell me more',
      "Don't stop",
      'stop by our booth next week please',
      'Not interested',
    ])
      expect(isOptOut(text)).toBe(false)
  })

  const profile = (overrides: Partial<ScrapedProfile>): ScrapedProfile => ({
    platformId: '1',
    username: 'p',
    name: 'P',
    bio: 'Founder',
    location: '',
    followers: 1000,
    following: 10,
    posts: 5,
    verified: false,
    blueVerified: false,
    professionalType: null,
    isBusiness: false,
    canDm: true,
    protected: false,
    ...overrides,
  })

  it('rejects by the first failing filter, with the reason stored', () => {
    const filters = readFilters({
      min_followers: 500,
      max_followers: 5000,
      verified_only: true,
      has_bio: true,
      exclude_business: true,
    })
    expect(filterReason(profile({ followers: 100 }), filters)).toBe('Fewer followers than the minimum')
    expect(filterReason(profile({ followers: null }), filters)).toBe('Fewer followers than the minimum')
    expect(filterReason(profile({ followers: 9000 }), filters)).toBe('More followers than the maximum')
    expect(filterReason(profile({}), filters)).toBe('Not verified')
    expect(filterReason(profile({ blueVerified: true, bio: ' ' }), filters)).toBe('No bio')
    expect(filterReason(profile({ verified: true, isBusiness: true }), filters)).toBe('Business account')
    expect(filterReason(profile({ verified: true }), filters)).toBeNull()
    expect(filterReason(profile({ followers: 0, bio: '' }), readFilters({}))).toBeNull()
  })
})

describe('safety of logs and jobs', () => {
  it('drops secret-looking fields from log metadata at any depth', () => {
    const safe = redact({
      accountId: 'a',
      cookies: [{ name: 'auth_token', value: 'secret' }],
      nested: { password: 'p', chatPasscode: '1234', ok: 1, session_ciphertext: 'x' },
      error: new Error('boom'),
    })
    expect(JSON.stringify(safe)).not.toMatch(/secret|"p"|1234|ciphertext/)
    expect(safe).toMatchObject({ accountId: 'a', nested: { ok: 1 }, error: { message: 'boom' } })
  })

  it('refuses job data without the ids it needs', () => {
    expect(() => readJobData('campaign.tick', { campaignId: 'x' })).toThrow(/campaignId as a uuid/)
    const id = '6f1f4c1e-1d7a-4c51-9d38-2f0b5a7f9a10'
    expect(readJobData('campaign.tick', { campaignId: id, accountId: id })).toEqual({
      campaignId: id,
      accountId: id,
    })
  })
})

// Pure pieces of the adapters, no browser: TOTP codes (RFC 6238 vectors), X timeline parsing
// (both user layouts, replaced cursors), Instagram Direct JSON, stop-signal classification and
// human typing delays.
import { describe, expect, it } from 'vitest'
import { testRandom } from '../../stack/src/test-seed.ts'
import { humanKeyActions, keyDelay, typingBudgetMs } from '../src/browser/typing.ts'
import { INSTAGRAM_FACTS } from '../src/platforms/instagram/facts.ts'
import { igConversation, igMessages } from '../src/platforms/instagram/items.ts'
import { profileFromInfo } from '../src/platforms/instagram/scrape.ts'
import { igSignalFromResponse, igSignalFromText } from '../src/platforms/instagram/signals.ts'
import { decodeBase32, msLeftInStep, totpCode } from '../src/platforms/instagram/totp.ts'
import { X_FACTS } from '../src/platforms/x/facts.ts'
import { xSignalFromResponse, xSignalFromText } from '../src/platforms/x/signals.ts'
import { parseTimeline, parseXUser } from '../src/platforms/x/timeline.ts'

describe('TOTP', () => {
  // RFC 6238 appendix B, SHA-1, secret "12345678901234567890", last 6 of the 8-digit codes
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'
  it.each([
    [59, '287082'],
    [1_111_111_109, '081804'],
    [1_111_111_111, '050471'],
    [1_234_567_890, '005924'],
    [2_000_000_000, '279037'],
    [20_000_000_000, '353130'],
  ])('at %i s gives %s', (seconds, code) => {
    expect(totpCode(secret, seconds * 1000)).toBe(code)
  })

  it('accepts lowercase and spaced secrets, rejects non-base32, and knows the step boundary', () => {
    expect(totpCode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq', 59_000)).toBe('287082')
    expect(() => decodeBase32('not base32!')).toThrow(/base32/)
    expect(msLeftInStep(59_000)).toBe(1_000)
    expect(msLeftInStep(60_000)).toBe(30_000)
  })
})

const legacyUser = {
  __typename: 'User',
  rest_id: '42',
  is_blue_verified: true,
  legacy: {
    screen_name: 'ada',
    name: 'Ada',
    description: 'Engines',
    location: 'London',
    followers_count: 1200,
    friends_count: 80,
    statuses_count: 9,
    verified: false,
    protected: false,
    can_dm: true,
  },
  professional: { professional_type: 'Business' },
}

describe('X timelines', () => {
  it('reads users in the legacy layout and in the newer core/privacy/dm_permissions layout', () => {
    expect(parseXUser(legacyUser)).toEqual({
      platformId: '42',
      username: 'ada',
      name: 'Ada',
      bio: 'Engines',
      location: 'London',
      followers: 1200,
      following: 80,
      posts: 9,
      verified: false,
      blueVerified: true,
      professionalType: 'Business',
      isBusiness: true,
      canDm: true,
      protected: false,
    })
    const newer = parseXUser({
      __typename: 'User',
      rest_id: '7',
      core: { screen_name: 'grace', name: 'Grace' },
      legacy: { followers_count: 5 },
      privacy: { protected: true },
      dm_permissions: { can_dm: false },
      verification: { verified: true },
    })
    expect(newer).toMatchObject({
      username: 'grace',
      protected: true,
      canDm: false,
      verified: true,
      professionalType: null,
    })
    expect(parseXUser({ __typename: 'UserUnavailable' })).toBeUndefined()
  })

  it('collects users and tweet authors once each and finds the Bottom cursor, also when replaced', () => {
    const body = {
      data: {
        search_by_raw_query: {
          search_timeline: {
            timeline: {
              instructions: [
                {
                  type: 'TimelineAddEntries',
                  entries: [
                    {
                      content: {
                        itemContent: {
                          tweet_results: { result: { core: { user_results: { result: legacyUser } } } },
                        },
                      },
                    },
                    {
                      content: {
                        itemContent: {
                          tweet_results: { result: { core: { user_results: { result: legacyUser } } } },
                        },
                      },
                    },
                    {
                      content: {
                        itemContent: { user_results: { result: { ...legacyUser, rest_id: '43' } } },
                      },
                    },
                    {
                      content: {
                        itemContent: {
                          tweet_results: {
                            result: {
                              __typename: 'TweetWithVisibilityResults',
                              tweet: { core: { user_results: { result: { ...legacyUser, rest_id: '44' } } } },
                            },
                          },
                        },
                      },
                    },
                  ],
                },
                { type: 'TimelineReplaceEntry', entry: { content: { cursorType: 'Bottom', value: 'NEXT' } } },
              ],
            },
          },
        },
      },
    }
    const parsed = parseTimeline(body)
    expect(parsed.profiles.map((p) => p.platformId)).toEqual(['42', '43', '44'])
    expect(parsed.bottomCursor).toBe('NEXT')
    expect(parseTimeline({ data: {} })).toEqual({ profiles: [], bottomCursor: null })
  })

  it("keeps the texts of an author's posts as recent posts (at most three, no repeats)", () => {
    const tweet = (text: string) => ({
      content: {
        itemContent: {
          tweet_results: {
            result: { core: { user_results: { result: legacyUser } }, legacy: { full_text: text } },
          },
        },
      },
    })
    const entries = [
      'Shipping v2 today',
      'Shipping v2 today',
      'Hiring!',
      'Lessons from 1k users',
      'A fourth',
    ].map(tweet)
    const parsed = parseTimeline({
      data: {
        search_by_raw_query: {
          search_timeline: { timeline: { instructions: [{ type: 'TimelineAddEntries', entries }] } },
        },
      },
    })
    expect(parsed.profiles[0]?.recentPosts).toEqual(['Shipping v2 today', 'Hiring!', 'Lessons from 1k users'])
  })
})

describe('stop signals', () => {
  it('classifies X codes, bare statuses and page texts', () => {
    expect(
      xSignalFromResponse(429, { errors: [{ code: 88, message: 'Rate limit exceeded.' }] }),
    ).toMatchObject({ code: '88', kind: 'rate_limit' })
    expect(xSignalFromResponse(429, 'Too Many Requests')).toMatchObject({
      code: '429',
      kind: 'rate_limit',
      scope: 'account',
    })
    expect(xSignalFromResponse(401, null)).toMatchObject({ code: '32', kind: 'unauthenticated' })
    expect(xSignalFromResponse(200, {})).toBeUndefined()
    expect(
      xSignalFromText(
        X_FACTS,
        'You cannot send messages to this user: they only accept message requests from verified accounts.',
      ),
    ).toMatchObject({
      code: '476',
      scope: 'lead',
    })
    expect(xSignalFromText(X_FACTS, 'You cannot send messages to this user.')).toMatchObject({
      code: '349',
      scope: 'lead',
    })
    expect(xSignalFromText(X_FACTS, 'This request looks like it might be automated.')).toMatchObject({
      code: '226',
      scope: 'account',
    })
    expect(xSignalFromText(X_FACTS, 'Something went wrong. Try reloading.')).toMatchObject({
      kind: 'page_error',
    })
    expect(xSignalFromText(X_FACTS, 'Verify your identity')).toMatchObject({ kind: 'challenge' })
    expect(xSignalFromText(X_FACTS, 'All good')).toBeUndefined()
  })

  it('classifies Instagram messages', () => {
    expect(
      igSignalFromResponse(INSTAGRAM_FACTS, 400, {
        message: 'feedback_required',
        feedback_message: 'We restrict certain activity',
      }),
    ).toMatchObject({ kind: 'automation' })
    expect(
      igSignalFromResponse(INSTAGRAM_FACTS, 429, {
        message: 'Please wait a few minutes before you try again.',
      }),
    ).toMatchObject({ kind: 'rate_limit' })
    expect(igSignalFromResponse(INSTAGRAM_FACTS, 400, { message: 'checkpoint_required' })).toMatchObject({
      kind: 'challenge',
    })
    expect(igSignalFromResponse(INSTAGRAM_FACTS, 401, { message: 'login_required' })).toMatchObject({
      kind: 'unauthenticated',
    })
    expect(
      igSignalFromText(
        INSTAGRAM_FACTS,
        "This account can't receive your message because they don't allow new message requests from everyone.",
      ),
    ).toMatchObject({
      kind: 'cannot_message',
      scope: 'lead',
    })
  })
})

describe('Instagram JSON', () => {
  it('reads thread items oldest first with directions and times, and inbox conversations', () => {
    const thread = {
      thread_id: '340',
      read_state: 1,
      users: [{ pk: '9', username: 'lena' }],
      items: [
        { item_id: 'b', text: 'Sure!', is_sent_by_viewer: false, timestamp: '1700000001000000' },
        { item_id: 'a', text: 'Hi', is_sent_by_viewer: true, timestamp: '1700000000000000' },
      ],
    }
    expect(igMessages(thread).map((m) => [m.id, m.direction, m.at])).toEqual([
      ['a', 'outgoing', '2023-11-14T22:13:20.000Z'],
      ['b', 'incoming', '2023-11-14T22:13:21.000Z'],
    ])
    expect(igConversation(thread, false)).toEqual({
      threadId: '340',
      peer: { id: '9', username: 'lena' },
      unread: true,
      request: false,
      lastMessage: { text: 'Sure!', direction: 'incoming', at: '2023-11-14T22:13:21.000Z' },
    })
    expect(
      profileFromInfo({
        id: '1',
        username: 'shop',
        is_business_account: true,
        edge_followed_by: { count: 3 },
      }),
    ).toMatchObject({
      professionalType: 'Business',
      followers: 3,
      following: null,
    })
  })
})

describe('human typing', () => {
  const typing = testRandom('parsers typing')
  it('waits 40–130 ms per key, more on spaces, and scales to nothing', () => {
    let i = 0
    const steady = () => [0.5, 0.5, 0.9][i++ % 3] ?? 0.5
    const letter = keyDelay('a', steady)
    expect(letter).toBeGreaterThanOrEqual(40)
    expect(letter).toBeLessThanOrEqual(130)
    i = 0
    expect(keyDelay(' ', steady)).toBeGreaterThan(letter + 59)
    const delays = Array.from({ length: 2000 }, () => keyDelay('x', typing))
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(40)
    expect(delays.filter((d) => d > 130).length / delays.length).toBeLessThan(0.06) // the rare pauses
    expect(typingBudgetMs('hello', { delayFactor: 0 })).toBe(0)
  })

  it('types key by key in one action list: a human pause before each key, Shift+Enter for a newline', () => {
    const actions = humanKeyActions('Hi you\nok', 1, typing)
    const keys = actions.filter((a) => a.type === 'keyDown').map((a) => ('value' in a ? a.value : ''))
    expect(keys).toEqual(['H', 'i', ' ', 'y', 'o', 'u', '\uE008', '\uE007', 'o', 'k'])
    expect(actions.filter((a) => a.type === 'keyUp')).toHaveLength(keys.length)
    const pauses = actions.flatMap((a) => (a.type === 'pause' ? [a.duration] : []))
    expect(pauses).toHaveLength(9) // one before each of the nine characters
    expect(Math.min(...pauses)).toBeGreaterThanOrEqual(40)
    // the newline is pressed with Shift held: down Shift, down Enter, up Enter, up Shift
    const at = actions.findIndex((a) => 'value' in a && a.value === '\uE008')
    expect(actions.slice(at, at + 4).map((a) => a.type)).toEqual(['keyDown', 'keyDown', 'keyUp', 'keyUp'])
    // compressed to nothing: the same keys without pauses
    expect(humanKeyActions('Hi you\nok', 0, typing).some((a) => a.type === 'pause')).toBe(false)
  })
})

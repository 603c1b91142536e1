// X's internal GraphQL as the web app calls it: UserByScreenName, Followers, Following and
// SearchTimeline (People / Latest), with count, Bottom cursors (a repeated cursor means the end),
// TimelineReplaceEntry on later search pages, and x-rate-limit-* headers (code 88 when spent).
import type { ServerResponse } from 'node:http'
import { HttpError, type Request, sendJson } from '../social/http.ts'
import type { Messaging } from '../social/messaging.ts'
import type { Profile } from '../social/population.ts'
import type { OwnAccount } from '../social/state.ts'
import { apiAccount, xError } from './accounts.ts'

type Person = Profile | OwnAccount

function isProfile(person: Person): person is Profile {
  return 'followers' in person
}

const twitterDate = (ms: number) =>
  new Date(ms).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 +0000 $4')

/** A user result in the shape the web app receives (legacy fields plus the newer core/privacy split). */
export function userResult(person: Person): Record<string, unknown> {
  const p = isProfile(person) ? person : undefined
  const created = twitterDate(p?.createdAt ?? (person as OwnAccount).createdAt)
  const canDm = p?.canDm ?? true
  const isProtected = p?.protected ?? false
  const verified = p?.verified ?? false
  return {
    __typename: 'User',
    id: Buffer.from(`User:${person.id}`).toString('base64'),
    rest_id: person.id,
    is_blue_verified: p?.blueVerified ?? person.blueVerified,
    core: { created_at: created, name: person.name, screen_name: person.username },
    avatar: { image_url: '/__sandbox/avatar.svg' },
    location: { location: p?.location ?? '' },
    privacy: { protected: isProtected },
    dm_permissions: { can_dm: canDm },
    verification: { verified },
    legacy: {
      created_at: created,
      name: person.name,
      screen_name: person.username,
      description: p?.bio ?? '',
      location: p?.location ?? '',
      followers_count: p?.followers ?? 0,
      friends_count: p?.following ?? 0,
      statuses_count: p?.posts ?? 0,
      verified,
      protected: isProtected,
      can_dm: canDm,
      profile_image_url_https: '/__sandbox/avatar.svg',
    },
    ...(p?.professional
      ? { professional: { rest_id: `${p.id}9`, professional_type: p.professional, category: [] } }
      : {}),
  }
}

const encodeCursor = (offset: number, key: string) =>
  `DAAB${Buffer.from(`${offset}|${key}`).toString('base64url')}`

function decodeCursor(cursor: unknown, key: string): number {
  if (cursor === undefined || cursor === null || cursor === '') return 0
  if (typeof cursor !== 'string' || !cursor.startsWith('DAAB')) throw new HttpError(400, 'Bad cursor')
  const [offset, cursorKey] = Buffer.from(cursor.slice(4), 'base64url').toString().split('|')
  if (cursorKey !== key || !/^\d+$/.test(offset ?? '')) throw new HttpError(400, 'Bad cursor')
  return Number(offset)
}

function userEntry(person: Person, sortIndex: number) {
  return {
    entryId: `user-${person.id}`,
    sortIndex: String(sortIndex),
    content: {
      entryType: 'TimelineTimelineItem',
      __typename: 'TimelineTimelineItem',
      itemContent: {
        itemType: 'TimelineUser',
        __typename: 'TimelineUser',
        user_results: { result: userResult(person) },
        userDisplayType: 'User',
      },
    },
  }
}

function tweetEntry(author: Profile, tweetId: string, text: string, at: number, sortIndex: number) {
  return {
    entryId: `tweet-${tweetId}`,
    sortIndex: String(sortIndex),
    content: {
      entryType: 'TimelineTimelineItem',
      __typename: 'TimelineTimelineItem',
      itemContent: {
        itemType: 'TimelineTweet',
        __typename: 'TimelineTweet',
        tweet_results: {
          result: {
            __typename: 'Tweet',
            rest_id: tweetId,
            core: { user_results: { result: userResult(author) } },
            legacy: {
              id_str: tweetId,
              user_id_str: author.id,
              full_text: text,
              created_at: twitterDate(at),
            },
          },
        },
      },
    },
  }
}

function cursorEntry(kind: 'Top' | 'Bottom', value: string, sortIndex: number) {
  return {
    entryId: `cursor-${kind.toLowerCase()}-${sortIndex}`,
    sortIndex: String(sortIndex),
    content: {
      entryType: 'TimelineTimelineCursor',
      __typename: 'TimelineTimelineCursor',
      value,
      cursorType: kind,
    },
  }
}

interface Variables {
  userId?: string
  screen_name?: string
  count?: number
  cursor?: string
  rawQuery?: string
  product?: string
}

function parseVariables(req: Request): Variables {
  const raw = req.url.searchParams.get('variables') ?? (req.body.variables as string | undefined)
  if (!raw) throw new HttpError(400, 'variables are required')
  try {
    return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Variables
  } catch {
    throw new HttpError(400, 'variables must be JSON')
  }
}

export function handleGraphql(messaging: Messaging, req: Request, res: ServerResponse): void {
  const account = apiAccount(messaging.world, req)
  const operation = req.params.operation ?? ''
  const variables = parseVariables(req)
  if (operation === 'UserByScreenName') {
    const person = lookup(messaging, variables.screen_name ?? '')
    sendJson(res, 200, { data: person ? { user: { result: userResult(person) } } : {} })
    return
  }
  if (!['Followers', 'Following', 'SearchTimeline'].includes(operation))
    throw new HttpError(404, `Unknown operation ${operation}`)
  const allowance = messaging.scrapeAllowance(account)
  const headers = {
    'x-rate-limit-limit': String(allowance.limit),
    'x-rate-limit-remaining': String(allowance.remaining),
    'x-rate-limit-reset': String(Math.ceil(allowance.resetAt / 1000)),
  }
  if (!allowance.allowed) {
    sendJson(res, 429, xError(88).body, headers)
    return
  }
  const count = Math.max(1, Math.min(100, Number(variables.count ?? 20)))
  const body =
    operation === 'SearchTimeline'
      ? searchTimeline(messaging, variables, count)
      : followList(messaging, operation === 'Followers' ? 'followers' : 'following', variables, count)
  sendJson(res, 200, body, headers)
}

function lookup(messaging: Messaging, screenName: string): Person | undefined {
  return messaging.population.byUsername(screenName) ?? messaging.world.accountByUsername(screenName)
}

function followList(
  messaging: Messaging,
  kind: 'followers' | 'following',
  variables: Variables,
  count: number,
) {
  const person = variables.userId ? messaging.person(variables.userId) : undefined
  if (!person) return { data: { user: {} } }
  const key = `${kind}:${person.id}`
  const offset = decodeCursor(variables.cursor, key)
  const population = messaging.population
  const page = isProfile(person) ? population.listOf(person, kind, offset, count) : []
  const total = isProfile(person) ? population.listLength(person, kind) : 0
  const next = Math.min(total, offset + page.length)
  const entries = [
    ...page.map((p, i) => userEntry(p, 1_900_000_000 - offset - i)),
    cursorEntry(
      'Bottom',
      page.length === 0 ? (variables.cursor ?? encodeCursor(0, key)) : encodeCursor(next, key),
      1,
    ),
    cursorEntry('Top', `-1|${offset}`, 0),
  ]
  return {
    data: {
      user: {
        result: {
          __typename: 'User',
          timeline: {
            timeline: {
              instructions: [{ type: 'TimelineClearCache' }, { type: 'TimelineAddEntries', entries }],
            },
          },
        },
      },
    },
  }
}

function searchTimeline(messaging: Messaging, variables: Variables, count: number) {
  const query = (variables.rawQuery ?? '').trim()
  const product = variables.product ?? 'Top'
  const hashtag = /^#\w+$/.test(query) ? query.slice(1).toLowerCase() : undefined
  const population = messaging.population
  const people = hashtag ? population.withTopic(hashtag) : population.searchPeople(query)
  const key = `search:${product}:${query.toLowerCase()}`
  const offset = decodeCursor(variables.cursor, key)
  const page = people.slice(offset, offset + count)
  const now = messaging.world.now()
  const items =
    product === 'People'
      ? page.map((p, i) => userEntry(p, 1_900_000_000 - offset - i))
      : page.map((p, i) => {
          const position = offset + i
          const text = hashtag ? `${p.bio || 'New post'} #${hashtag}` : p.bio || query
          return tweetEntry(
            p,
            `18${String(position).padStart(10, '0')}${p.index}`,
            text,
            now - position * 420_000,
            1_900_000_000 - position,
          )
        })
  const bottom =
    page.length === 0 ? (variables.cursor ?? encodeCursor(0, key)) : encodeCursor(offset + page.length, key)
  // the first page carries its cursors as entries; later pages replace them, as x.com does
  const instructions =
    offset === 0
      ? [
          {
            type: 'TimelineAddEntries',
            entries: [...items, cursorEntry('Top', `top|${key}`, 0), cursorEntry('Bottom', bottom, 1)],
          },
        ]
      : [
          { type: 'TimelineAddEntries', entries: items },
          {
            type: 'TimelineReplaceEntry',
            entry_id_to_replace: 'cursor-top-0',
            entry: cursorEntry('Top', `top|${key}`, 0),
          },
          {
            type: 'TimelineReplaceEntry',
            entry_id_to_replace: 'cursor-bottom-1',
            entry: cursorEntry('Bottom', bottom, 1),
          },
        ]
  return { data: { search_by_raw_query: { search_timeline: { timeline: { instructions } } } } }
}

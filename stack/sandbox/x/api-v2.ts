// X API v2 on the X sandbox's world (api.x.com and x.com share one backend, so a lead the browser
// scraper found can be messaged here, and a reply to either shows in both): the users lookups and
// the Direct Message events, with the checks of api-v2-auth.ts; sending is api-v2-send.ts.
import type { ServerResponse } from 'node:http'
import type { Request, Router } from '../social/http.ts'
import type { Profile } from '../social/population.ts'
import type { Message, OwnAccount, Thread } from '../social/state.ts'
import { type Caller, caller, eventIdOf, SCOPES, send, type XApiContext } from './api-v2-auth.ts'
import { invalidRequest } from './api-v2-limits.ts'
import { sendDm } from './api-v2-send.ts'

const THIRTY_DAYS = 30 * 86_400_000
const EVENT_FIELDS = [
  'id',
  'text',
  'event_type',
  'created_at',
  'dm_conversation_id',
  'sender_id',
  'participant_ids',
  'referenced_tweets',
  'attachments',
]
const EVENT_TYPES = ['MessageCreate', 'ParticipantsJoin', 'ParticipantsLeave']
const USER_FIELDS = [
  'created_at',
  'description',
  'location',
  'name',
  'id',
  'username',
  'profile_image_url',
  'protected',
  'public_metrics',
  'verified',
  'verified_type',
  'receives_your_dm',
]

function listParam(req: Request, res: ServerResponse, name: string, allowed: string[]): string[] | undefined {
  const value = req.url.searchParams.get(name)
  if (value === null) return []
  const items = value.split(',')
  const bad = items.find((i) => !allowed.includes(i))
  if (bad !== undefined) {
    invalidRequest(
      res,
      name,
      `The \`${name}\` query parameter value [${bad}] is not one of [${allowed.join(',')}]`,
      value,
    )
    return undefined
  }
  return items
}

function userJson(ctx: XApiContext, viewer: OwnAccount, person: Profile | OwnAccount, fields: string[]) {
  const profile = 'canDm' in person ? person : undefined
  const peerWrote =
    ctx.messaging.existingThread(viewer, person.id)?.messages.some((m) => m.senderId === person.id) ?? false
  const all: Record<string, unknown> = {
    created_at: new Date(person.createdAt).toISOString(),
    description: profile?.bio ?? '',
    location: profile?.location ?? '',
    profile_image_url: 'https://pbs.twimg.com/profile_images/default_profile_normal.png',
    protected: profile?.protected ?? false,
    public_metrics: {
      followers_count: profile?.followers ?? 0,
      following_count: profile?.following ?? 0,
      tweet_count: profile?.posts ?? 0,
      listed_count: 0,
    },
    verified: person.blueVerified || (profile?.verified ?? false),
    verified_type: profile?.verified ? 'business' : person.blueVerified ? 'blue' : 'none',
    receives_your_dm:
      person.id !== viewer.id &&
      (!profile || peerWrote || (profile.canDm && (!profile.verifiedOnlyRequests || viewer.blueVerified))),
  }
  const out: Record<string, unknown> = { id: person.id, name: person.name, username: person.username }
  for (const field of fields) if (field in all) out[field] = all[field]
  return out
}

function notFound(parameter: string, value: string, what: string) {
  return {
    value,
    detail: `Could not find user with ${what}: [${value}].`,
    title: 'Not Found Error',
    resource_type: 'user',
    parameter,
    resource_id: value,
    type: 'https://api.twitter.com/2/problems/resource-not-found',
  }
}

function eventJson(thread: Thread, message: Message, fields: string[]) {
  const all: Record<string, unknown> = {
    created_at: new Date(message.at).toISOString(),
    dm_conversation_id: thread.id,
    sender_id: message.senderId,
  }
  const out: Record<string, unknown> = {
    id: eventIdOf(message),
    event_type: 'MessageCreate',
    text: message.text,
  }
  for (const field of fields) if (field in all) out[field] = all[field]
  return out
}

/** Lists DM events newest first, paged by an opaque token naming the last event shown. */
function listEvents(ctx: XApiContext, req: Request, res: ServerResponse, who: Caller, threads: Thread[]) {
  const fields = listParam(req, res, 'dm_event.fields', EVENT_FIELDS)
  const types = fields && listParam(req, res, 'event_types', EVENT_TYPES)
  const expansions =
    types &&
    listParam(req, res, 'expansions', [
      'sender_id',
      'participant_ids',
      'attachments.media_keys',
      'referenced_tweets.id',
    ])
  if (!fields || !types || !expansions) return
  const maxRaw = req.url.searchParams.get('max_results') ?? '100'
  const max = Number(maxRaw)
  if (!/^\d+$/.test(maxRaw) || max < 1 || max > 100)
    return invalidRequest(
      res,
      'max_results',
      `The \`max_results\` query parameter value [${maxRaw}] is not between 1 and 100`,
      maxRaw,
    )
  const token = req.url.searchParams.get('pagination_token')
  let after: [number, string] | undefined
  if (token !== null) {
    try {
      after = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as [number, string]
      if (!Array.isArray(after) || typeof after[0] !== 'number' || typeof after[1] !== 'string')
        throw new Error()
    } catch {
      return invalidRequest(
        res,
        'pagination_token',
        'The `pagination_token` query parameter value is not valid',
        token,
      )
    }
  }
  const since = ctx.messaging.world.now() - THIRTY_DAYS
  const wanted = types.length === 0 || types.includes('MessageCreate')
  const events = threads
    .flatMap((thread) =>
      thread.messages
        .filter((m) => m.at >= since)
        .map((message) => ({ thread, message, id: eventIdOf(message) })),
    )
    .filter(() => wanted)
    .sort((a, b) => b.message.at - a.message.at || b.id.localeCompare(a.id))
  const start = after
    ? events.filter((e) => e.message.at > after[0] || (e.message.at === after[0] && e.id >= after[1])).length
    : 0
  const page = events.slice(start, start + max)
  const last = page.at(-1)
  const more = start + max < events.length && last
  // expansions=sender_id: the senders as user objects in includes.users, as X answers it
  const senders = expansions.includes('sender_id')
    ? [...new Set(page.map((e) => e.message.senderId))].flatMap((id) => {
        const person = ctx.messaging.person(id)
        return person ? [userJson(ctx, who.account, person, [])] : []
      })
    : []
  send(
    res,
    200,
    {
      ...(page.length ? { data: page.map((e) => eventJson(e.thread, e.message, fields)) } : {}),
      ...(senders.length ? { includes: { users: senders } } : {}),
      meta: {
        result_count: page.length,
        ...(more
          ? { next_token: Buffer.from(JSON.stringify([last.message.at, last.id])).toString('base64url') }
          : {}),
      },
    },
    who.headers,
  )
}

export function registerXApiV2(router: Router, ctx: XApiContext): void {
  const { messaging } = ctx
  const world = messaging.world

  router.on('GET', '/2/users/me', (req, res) => {
    const who = caller(ctx, req, res, 'users_me', SCOPES.users)
    const fields = who && listParam(req, res, 'user.fields', USER_FIELDS)
    if (who && fields) send(res, 200, { data: userJson(ctx, who.account, who.account, fields) }, who.headers)
  })

  router.on('GET', '/2/users/by/username/:username', (req, res) => {
    const who = caller(ctx, req, res, 'users_by_username', SCOPES.users)
    const fields = who && listParam(req, res, 'user.fields', USER_FIELDS)
    if (!who || !fields) return
    const username = req.params.username ?? ''
    if (!/^[A-Za-z0-9_]{1,15}$/.test(username))
      return invalidRequest(
        res,
        'username',
        `The \`username\` query parameter value [${username}] does not match ^[A-Za-z0-9_]{1,15}$`,
        username,
      )
    const person = messaging.population.byUsername(username) ?? world.accountByUsername(username)
    send(
      res,
      200,
      person
        ? { data: userJson(ctx, who.account, person, fields) }
        : { errors: [notFound('username', username, 'username')] },
      who.headers,
    )
  })

  router.on('GET', '/2/users/:id', (req, res) => {
    const who = caller(ctx, req, res, 'users_lookup', SCOPES.users)
    const fields = who && listParam(req, res, 'user.fields', USER_FIELDS)
    if (!who || !fields) return
    const id = req.params.id ?? ''
    if (!/^\d{1,19}$/.test(id))
      return invalidRequest(
        res,
        'id',
        `The \`id\` query parameter value [${id}] does not match ^[0-9]{1,19}$`,
        id,
      )
    const person = messaging.person(id)
    send(
      res,
      200,
      person ? { data: userJson(ctx, who.account, person, fields) } : { errors: [notFound('id', id, 'id')] },
      who.headers,
    )
  })

  router.on('POST', '/2/dm_conversations/with/:participant_id/messages', (req, res) => sendDm(ctx, req, res))

  router.on('GET', '/2/dm_events', (req, res) => {
    const who = caller(ctx, req, res, 'dm_events', SCOPES.dmRead)
    if (who) listEvents(ctx, req, res, who, world.threadsOf(who.account.id))
  })

  router.on('GET', '/2/dm_conversations/with/:participant_id/dm_events', (req, res) => {
    const who = caller(ctx, req, res, 'dm_conversation_events', SCOPES.dmRead)
    if (!who) return
    const peerId = req.params.participant_id ?? ''
    if (!/^\d{1,19}$/.test(peerId))
      return invalidRequest(
        res,
        'participant_id',
        `The \`participant_id\` path parameter value [${peerId}] is not a valid user id`,
        peerId,
      )
    const thread = messaging.existingThread(who.account, peerId)
    listEvents(ctx, req, res, who, thread ? [thread] : [])
  })

  router.on('GET', '/2/dm_conversations/:dm_conversation_id/dm_events', (req, res) => {
    const who = caller(ctx, req, res, 'dm_conversation_events', SCOPES.dmRead)
    if (!who) return
    const thread = world.threads.get(req.params.dm_conversation_id ?? '')
    listEvents(ctx, req, res, who, thread?.accountId === who.account.id ? [thread] : [])
  })
}

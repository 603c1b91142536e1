// X API v2 on the X sandbox's world (api.x.com and x.com share one backend, so a lead the browser
// scraper found can be messaged here, and a reply to either shows in both): the users lookups and
// the Direct Message endpoints, with OAuth 2.0 user-context tokens, scopes, per-user rate limits and
// the DM refusals (recipient's DM settings, the account's daily ceiling and automation blocks, send
// faults) that the web path has, answered in X API v2's shapes.
import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { Request, Router } from '../social/http.ts'
import type { Messaging, SendRefusal } from '../social/messaging.ts'
import type { Profile } from '../social/population.ts'
import type { Fault, Message, OwnAccount, Thread } from '../social/state.ts'
import { X_ERRORS } from './accounts.ts'
import { type Endpoint, invalidRequest, problem, type RateLimits } from './api-v2-limits.ts'
import type { Grant, OAuthStore } from './oauth-store.ts'

const HANG_MS = 120_000
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

/** What X answers when a DM is refused (HTTP 403 unless said), by the world's reason. */
export const DM_REFUSALS: Record<SendRefusal, { status: number; detail: string }> = {
  cannot_dm: { status: 403, detail: X_ERRORS[349].message },
  verified_only: { status: 403, detail: X_ERRORS[476].message },
  blocked: { status: 403, detail: X_ERRORS[226].message },
  too_fast: { status: 403, detail: X_ERRORS[226].message },
  same_text: { status: 403, detail: X_ERRORS[226].message },
  locked: { status: 403, detail: X_ERRORS[326].message },
  expired: { status: 401, detail: 'Unauthorized' },
  daily_limit: { status: 429, detail: 'Too Many Requests' },
}
const CODE_REFUSALS: Record<number, SendRefusal> = {
  349: 'cannot_dm',
  476: 'verified_only',
  226: 'blocked',
  326: 'locked',
  32: 'expired',
  88: 'daily_limit',
  429: 'daily_limit',
}

const SCOPES = {
  users: ['tweet.read', 'users.read'],
  dmRead: ['dm.read', 'tweet.read', 'users.read'],
  dmWrite: ['dm.write', 'dm.read', 'tweet.read', 'users.read'],
}

/** Direct Message event ids are numeric (snowflakes); the sandbox derives a stable one per message. */
export function eventIdOf(message: Message): string {
  return BigInt(`0x${createHash('sha256').update(message.id).digest('hex').slice(0, 15)}`).toString()
}

interface Caller {
  grant: Grant
  account: OwnAccount
  headers: Record<string, string>
}

export interface XApiContext {
  messaging: Messaging
  store: OAuthStore
  limits: RateLimits
}

/** The bearer's grant and account, its scopes and the endpoint's rate limit, or X's answer. */
function caller(
  ctx: XApiContext,
  req: Request,
  res: ServerResponse,
  endpoint: Endpoint,
  scopes: string[],
): Caller | undefined {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
  const grant = ctx.store.liveGrant(token)
  const account = grant ? ctx.messaging.world.accounts.get(grant.accountId) : undefined
  if (!grant || !account || account.state === 'expired') {
    problem(res, 401, 'Unauthorized', 'Unauthorized')
    return undefined
  }
  const allowance = ctx.limits.take(endpoint, grant.clientId, account.id)
  if (!allowance.allowed) {
    problem(res, 429, 'Too Many Requests', 'Too Many Requests', allowance.headers)
    return undefined
  }
  if (!scopes.every((s) => grant.scopes.includes(s))) {
    problem(res, 403, 'Forbidden', 'Forbidden', allowance.headers)
    return undefined
  }
  if (account.state === 'locked') {
    problem(res, 403, 'Forbidden', X_ERRORS[326].message, allowance.headers)
    return undefined
  }
  return { grant, account, headers: allowance.headers }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
  res.end(JSON.stringify(body))
}

/** A comma-separated list parameter, checked against the allowed values (else X's 400). */
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

function refuse(res: ServerResponse, refusal: SendRefusal, headers: Record<string, string>): void {
  const { status, detail } = DM_REFUSALS[refusal]
  const title = status === 429 ? 'Too Many Requests' : status === 401 ? 'Unauthorized' : 'Forbidden'
  problem(res, status, title, detail, headers)
}

function sendDm(ctx: XApiContext, req: Request, res: ServerResponse) {
  const { messaging } = ctx
  const who = caller(ctx, req, res, 'dm_send', SCOPES.dmWrite)
  if (!who) return
  const { account, headers } = who
  const peerId = req.params.participant_id ?? ''
  const text = req.body.text
  if (!(req.headers['content-type'] ?? '').includes('application/json'))
    return problem(
      res,
      400,
      'Invalid Request',
      'One or more parameters to your request was invalid.',
      headers,
      'https://api.twitter.com/2/problems/invalid-request',
    )
  if (typeof text !== 'string' || text.trim() === '' || text.length > 10_000)
    return invalidRequest(res, 'text', 'text must be between 1 and 10000 characters', String(text ?? ''))
  const peer = /^\d{1,19}$/.test(peerId) && peerId !== account.id ? messaging.person(peerId) : undefined
  if (!peer)
    return invalidRequest(
      res,
      'participant_id',
      `participant_id [${peerId}] is not a user you can message`,
      peerId,
    )

  const fault: Fault | undefined = messaging.takeFault(account, 'send')
  if (fault?.mode === 'error') return refuse(res, CODE_REFUSALS[fault.code ?? 226] ?? 'blocked', headers)
  if (fault?.mode === 'http_500')
    return problem(res, 503, 'Service Unavailable', 'Service Unavailable', headers)
  if (fault?.mode === 'dropped' || fault?.mode === 'hang' || fault?.mode === 'delayed') {
    if (fault.mode === 'delayed')
      setTimeout(() => {
        if (!messaging.checkSend(account, peerId, text)) messaging.deliver(account, peerId, text)
      }, fault.delayMs ?? 6_000).unref()
    setTimeout(() => res.destroy(), HANG_MS).unref()
    return
  }
  const refusal = messaging.checkSend(account, peerId, text)
  if (refusal) return refuse(res, refusal, headers)
  const { thread, message } = messaging.deliver(account, peerId, text)
  if (fault?.mode === 'ack_lost') {
    setTimeout(() => res.destroy(), HANG_MS).unref()
    return
  }
  if (fault?.mode === 'error_after_delivery')
    return problem(res, 503, 'Service Unavailable', 'Service Unavailable', headers)
  send(res, 201, { data: { dm_conversation_id: thread.id, dm_event_id: eventIdOf(message) } }, headers)
}

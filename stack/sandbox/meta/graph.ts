// The Graph API of Instagram API with Instagram Login (graph.instagram.com, versioned `/v23.0/…`
// or not): the profile, media, comments and their public replies, the webhook subscription of an
// account, and the Send API (DMs inside the 24-hour window, HUMAN_AGENT within 7 days, one private
// reply per comment within 7 days of it). Every answer carries the usage headers Meta sends.
import { type ApiRequest, type Router, route, sendJson } from '../official/server.ts'
import { GRAPH, graphError } from './errors.ts'
import { validToken } from './oauth.ts'
import type { Webhooks } from './webhooks.ts'
import { DAY, HOUR, type IgAccount, type MetaWorld, type Token } from './world.ts'

/** The fields POST /me/subscribed_apps accepts (Instagram's webhook fields). */
export const WEBHOOK_FIELDS = [
  'comments',
  'live_comments',
  'mentions',
  'messages',
  'message_reactions',
  'messaging_optins',
  'messaging_postbacks',
  'messaging_referral',
  'messaging_seen',
  'story_insights',
] as const

/** Private replies an account may send per hour (Meta's Private Replies API limit). */
export const PRIVATE_REPLIES_PER_HOUR = 750
const MAX_TEXT_BYTES = 1000
const STANDARD_WINDOW_MS = DAY
const HUMAN_AGENT_WINDOW_MS = 7 * DAY
const PRIVATE_REPLY_WINDOW_MS = 7 * DAY

interface Caller {
  token: Token
  account: IgAccount
}

function bearer(req: ApiRequest): string | null {
  const header = req.headers.authorization ?? ''
  const match = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header)
  return (
    match?.[1] ??
    req.url.searchParams.get('access_token') ??
    (req.body.access_token as string | undefined) ??
    null
  )
}

/** Usage as a percentage of the hourly budget, the shape of X-Business-Use-Case-Usage / X-App-Usage. */
function usageHeaders(world: MetaWorld, account: IgAccount): Record<string, string> {
  const now = world.now()
  account.calls = account.calls.filter((at) => at > now - HOUR)
  const percent = Math.min(100, Math.floor((account.calls.length * 100) / world.state.callsPerHour))
  const regain = percent >= 100 ? Math.ceil(((account.calls[0] ?? now) + HOUR - now) / 60_000) : 0
  return {
    'x-business-use-case-usage': JSON.stringify({
      [account.id]: [
        {
          type: 'instagram',
          call_count: percent,
          total_cputime: Math.min(100, Math.floor(percent / 4)),
          total_time: Math.min(100, Math.floor(percent / 3)),
          estimated_time_to_regain_access: regain,
        },
      ],
    }),
    'x-app-usage': JSON.stringify({
      call_count: percent,
      total_cputime: Math.floor(percent / 4),
      total_time: Math.floor(percent / 3),
    }),
  }
}

/** The caller of a Graph request, counted against its account's hourly budget. */
function authenticate(world: MetaWorld, req: ApiRequest, needs?: string): Caller {
  const token = validToken(world, bearer(req))
  const account = world.accountById(token.accountId)
  if (!account) throw GRAPH.badToken()
  const headers = usageHeaders(world, account)
  if (account.calls.length >= world.state.callsPerHour) throw GRAPH.accountRateLimit(headers)
  account.calls.push(world.now())
  world.changed()
  if (needs && !token.scopes.includes(needs)) throw GRAPH.permission()
  req.res.setHeader(
    'x-business-use-case-usage',
    usageHeaders(world, account)['x-business-use-case-usage'] ?? '',
  )
  req.res.setHeader('x-app-usage', usageHeaders(world, account)['x-app-usage'] ?? '')
  return { token, account }
}

/** The requested `fields` of an object (Graph returns only `id` when none are asked for). */
function pick(object: Record<string, unknown>, req: ApiRequest, defaults: string[]): Record<string, unknown> {
  const asked = (req.url.searchParams.get('fields') ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
  const fields = asked.length ? asked : defaults
  const out: Record<string, unknown> = {}
  for (const field of fields) {
    if (!(field in object)) throw GRAPH.param(`Tried accessing nonexisting field (${field})`)
    if (object[field] !== undefined) out[field] = object[field]
  }
  if ('id' in object) out.id = object.id
  return out
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000')

function parseJsonParam(value: unknown, name: string): Record<string, unknown> {
  if (value && typeof value === 'object') return value as Record<string, unknown>
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value)
      if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>
    } catch {
      // answered below
    }
  }
  throw GRAPH.param(`param ${name} must be a JSON object`)
}

/** One fault the control API armed for this account and kind of call, used up by this call. */
function takeFault(world: MetaWorld, account: IgAccount, target: 'messages' | 'comments') {
  const fault = world.state.faults.find(
    (f) =>
      f.count > 0 && (f.target === target || f.target === 'any') && (!f.account || f.account === account.id),
  )
  if (!fault) return null
  fault.count -= 1
  world.changed()
  if (fault.mode === 'http_500') throw GRAPH.server()
  if (fault.mode === 'error')
    throw graphError(
      fault.code ?? 1,
      '(#1) An unknown error occurred',
      fault.subcode ? { subcode: fault.subcode } : {},
    )
  return fault
}

export function registerGraph(router: Router, world: MetaWorld, webhooks: Webhooks): void {
  const paths = (path: string) => [path, `/:version${path}`]
  const on = (method: string, path: string, handler: (req: ApiRequest) => void) => {
    for (const p of paths(path))
      route(router, method, p, (req) => {
        if (req.params.version && !/^v\d+\.\d+$/.test(req.params.version))
          throw GRAPH.param('Unknown path components')
        handler(req)
      })
  }
  /** `me` or the caller's own professional account id (app-scoped or not). */
  const self = (req: ApiRequest, caller: Caller, id: string | undefined) => {
    if (id === undefined || id === 'me' || id === caller.account.id || id === caller.account.appScopedId)
      return
    throw GRAPH.noObject(id, req.method.toLowerCase())
  }

  const profile = (caller: Caller) => ({
    id: caller.account.appScopedId,
    user_id: caller.account.id,
    username: caller.account.username,
    name: caller.account.name,
    account_type: caller.account.accountType,
    profile_picture_url: `https://scontent.cdninstagram.com/v/t51/${caller.account.id}.jpg`,
    followers_count: caller.account.followers,
    follows_count: 0,
    media_count: world.state.media.filter((m) => m.accountId === caller.account.id).length,
  })

  const mediaObject = (id: string) => {
    const media = world.state.media.find((m) => m.id === id)
    if (!media) return null
    return {
      id: media.id,
      caption: media.caption,
      media_type: media.mediaType,
      media_product_type: media.productType,
      permalink: media.permalink,
      timestamp: iso(media.timestamp),
      username: world.accountById(media.accountId)?.username,
      comments_count: world.state.comments.filter((c) => c.mediaId === media.id).length,
    }
  }

  const commentObject = (id: string) => {
    const comment = world.state.comments.find((c) => c.id === id)
    if (!comment) return null
    return {
      id: comment.id,
      text: comment.text,
      timestamp: iso(comment.timestamp),
      username: comment.fromUsername,
      from: { id: comment.fromId, username: comment.fromUsername },
      media: { id: comment.mediaId },
      parent_id: comment.parentId ?? undefined,
      replies: undefined,
    }
  }

  on('GET', '/me', (req) => {
    const caller = authenticate(world, req, 'instagram_business_basic')
    sendJson(req.res, 200, pick(profile(caller), req, ['id']))
  })

  on('GET', '/me/media', (req) => mediaList(req, 'me'))
  on('GET', '/:id/media', (req) => mediaList(req, req.params.id))
  function mediaList(req: ApiRequest, id: string | undefined) {
    const caller = authenticate(world, req, 'instagram_business_basic')
    self(req, caller, id)
    const limit = Math.min(100, Math.max(1, Number(req.url.searchParams.get('limit') ?? 25) || 25))
    const all = world.state.media
      .filter((m) => m.accountId === caller.account.id)
      .sort((a, b) => b.timestamp - a.timestamp)
    const after = req.url.searchParams.get('after')
    const start = after ? Number(Buffer.from(after, 'base64url').toString()) : 0
    const page = all.slice(start, start + limit)
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url')
    sendJson(req.res, 200, {
      data: page.map((m) => pick(mediaObject(m.id) ?? {}, req, ['id'])),
      paging: {
        cursors: { before: cursor(start), after: cursor(start + page.length) },
        ...(start + page.length < all.length
          ? { next: `?after=${cursor(start + page.length)}&limit=${limit}` }
          : {}),
      },
    })
  }

  on('GET', '/me/subscribed_apps', (req) => {
    const caller = authenticate(world, req, 'instagram_business_basic')
    sendJson(req.res, 200, {
      data: caller.account.subscribedFields.length
        ? [
            {
              subscribed_fields: caller.account.subscribedFields,
              id: world.state.app.appId,
              name: world.state.app.name,
            },
          ]
        : [],
    })
  })
  on('POST', '/me/subscribed_apps', (req) => {
    const caller = authenticate(world, req, 'instagram_business_basic')
    const raw = req.url.searchParams.get('subscribed_fields') ?? String(req.body.subscribed_fields ?? '')
    const fields = raw
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean)
    if (!fields.length) throw GRAPH.param('The parameter subscribed_fields is required.')
    const unknown = fields.filter((f) => !(WEBHOOK_FIELDS as readonly string[]).includes(f))
    if (unknown.length)
      throw GRAPH.param(
        `Param subscribed_fields[0] must be one of {${WEBHOOK_FIELDS.join(', ')}} - got "${unknown[0]}".`,
      )
    const needs = fields.some((f) => f.includes('comment') || f === 'mentions')
      ? 'instagram_business_manage_comments'
      : 'instagram_business_manage_messages'
    if (!caller.token.scopes.includes(needs)) throw GRAPH.permission()
    caller.account.subscribedFields = fields
    world.changed()
    sendJson(req.res, 200, { success: true })
  })
  on('DELETE', '/me/subscribed_apps', (req) => {
    const caller = authenticate(world, req)
    caller.account.subscribedFields = []
    world.changed()
    sendJson(req.res, 200, { success: true })
  })

  on('POST', '/me/messages', (req) => sendMessage(req, 'me'))
  on('POST', '/:id/messages', (req) => sendMessage(req, req.params.id))
  function sendMessage(req: ApiRequest, id: string | undefined) {
    const caller = authenticate(world, req, 'instagram_business_manage_messages')
    self(req, caller, id)
    const { account } = caller
    const recipient = parseJsonParam(req.body.recipient ?? req.url.searchParams.get('recipient'), 'recipient')
    const message = parseJsonParam(req.body.message ?? req.url.searchParams.get('message'), 'message')
    const text = typeof message.text === 'string' ? message.text : ''
    if (!text.trim()) throw GRAPH.param('The parameter message[text] is required')
    if (Buffer.byteLength(text) > MAX_TEXT_BYTES)
      throw GRAPH.param(`Length of param message[text] must be less than or equal to ${MAX_TEXT_BYTES}`)
    const tag = (req.body.tag ?? req.url.searchParams.get('tag') ?? null) as string | null
    if (tag !== null && tag !== 'HUMAN_AGENT')
      throw GRAPH.param(`Param tag must be one of {HUMAN_AGENT} - got "${tag}".`)
    const now = world.now()

    if (typeof recipient.comment_id === 'string') {
      const comment = world.state.comments.find(
        (c) => c.id === recipient.comment_id && c.accountId === account.id,
      )
      if (!comment) throw GRAPH.noUser()
      if (comment.privateReplyMid) throw GRAPH.alreadyReplied()
      if (now - comment.timestamp > PRIVATE_REPLY_WINDOW_MS) throw GRAPH.outsideWindow()
      const person = world.personById(comment.fromId)
      if (!person?.available) throw GRAPH.unavailable()
      account.privateReplies = account.privateReplies.filter((at) => at > now - HOUR)
      if (account.privateReplies.length >= PRIVATE_REPLIES_PER_HOUR) throw GRAPH.apiRateLimit()
      const fault = takeFault(world, account, 'messages')
      account.privateReplies.push(now)
      const mid = world.newMid(account.id)
      comment.privateReplyMid = mid
      world.state.messages.push({
        mid,
        accountId: account.id,
        peerId: person.igsid,
        direction: 'out',
        text,
        timestamp: now,
        kind: 'private_reply',
        tag: null,
        commentId: comment.id,
      })
      world.changed()
      webhooks.echo(account.id, person.igsid, mid, text)
      if (fault?.mode === 'ack_lost') return void req.res.socket?.destroy()
      return sendJson(req.res, 200, { recipient_id: person.igsid, message_id: mid })
    }

    if (typeof recipient.id !== 'string') throw GRAPH.param('param recipient must have an id or a comment_id')
    const person = world.personById(recipient.id)
    if (!person || !world.conversation(account.id, person.igsid).length) throw GRAPH.noUser()
    if (!person.available) throw GRAPH.unavailable()
    const last = world.lastIncomingAt(account.id, person.igsid)
    const window = tag === 'HUMAN_AGENT' ? HUMAN_AGENT_WINDOW_MS : STANDARD_WINDOW_MS
    if (last === null || now - last > window) throw GRAPH.outsideWindow()
    const fault = takeFault(world, account, 'messages')
    const mid = world.newMid(account.id)
    world.state.messages.push({
      mid,
      accountId: account.id,
      peerId: person.igsid,
      direction: 'out',
      text,
      timestamp: now,
      kind: 'message',
      tag,
      commentId: null,
    })
    world.changed()
    webhooks.echo(account.id, person.igsid, mid, text)
    if (fault?.mode === 'ack_lost') return void req.res.socket?.destroy()
    sendJson(req.res, 200, { recipient_id: person.igsid, message_id: mid })
  }

  on('POST', '/:id/replies', (req) => {
    const caller = authenticate(world, req, 'instagram_business_manage_comments')
    const comment = world.state.comments.find(
      (c) => c.id === req.params.id && c.accountId === caller.account.id,
    )
    if (!comment) throw GRAPH.noObject(req.params.id ?? '', 'post')
    const text = String(req.url.searchParams.get('message') ?? req.body.message ?? '')
    if (!text.trim()) throw GRAPH.param('The parameter message is required')
    if (text.length > 2200) throw GRAPH.param('The comment is too long (2200 characters at most)')
    if (comment.parentId) throw GRAPH.param('Replies to replies are not supported')
    const fault = takeFault(world, caller.account, 'comments')
    const reply = { id: world.numericId('18', 17), text, timestamp: world.now() }
    comment.replies.push(reply)
    world.changed()
    if (fault?.mode === 'ack_lost') return void req.res.socket?.destroy()
    sendJson(req.res, 200, { id: reply.id })
  })

  on('GET', '/:id/replies', (req) => {
    const caller = authenticate(world, req, 'instagram_business_manage_comments')
    const comment = world.state.comments.find(
      (c) => c.id === req.params.id && c.accountId === caller.account.id,
    )
    if (!comment) throw GRAPH.noObject(req.params.id ?? '')
    sendJson(req.res, 200, {
      data: comment.replies.map((r) =>
        pick(
          { id: r.id, text: r.text, timestamp: iso(r.timestamp), username: caller.account.username },
          req,
          ['id', 'text', 'timestamp'],
        ),
      ),
    })
  })

  on('GET', '/:id/comments', (req) => {
    const caller = authenticate(world, req, 'instagram_business_manage_comments')
    const media = world.state.media.find((m) => m.id === req.params.id && m.accountId === caller.account.id)
    if (!media) throw GRAPH.noObject(req.params.id ?? '')
    const comments = world.state.comments
      .filter((c) => c.mediaId === media.id && !c.parentId)
      .sort((a, b) => b.timestamp - a.timestamp)
    sendJson(req.res, 200, {
      data: comments.map((c) => pick(commentObject(c.id) ?? {}, req, ['id', 'text', 'timestamp'])),
    })
  })

  on('GET', '/:id', (req) => {
    const caller = authenticate(world, req, 'instagram_business_basic')
    const id = req.params.id ?? ''
    if (id === caller.account.id || id === caller.account.appScopedId)
      return sendJson(req.res, 200, pick(profile(caller), req, ['id']))
    const media = world.state.media.find((m) => m.id === id && m.accountId === caller.account.id)
    if (media) return sendJson(req.res, 200, pick(mediaObject(id) ?? {}, req, ['id']))
    const comment = world.state.comments.find((c) => c.id === id && c.accountId === caller.account.id)
    if (comment) {
      if (!caller.token.scopes.includes('instagram_business_manage_comments')) throw GRAPH.permission()
      return sendJson(req.res, 200, pick(commentObject(id) ?? {}, req, ['id', 'text', 'timestamp']))
    }
    throw GRAPH.noObject(id)
  })
}

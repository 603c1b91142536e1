// The sandbox's control API (`/__sandbox/*`), for tests and the demo only (the product never calls
// it): what people do on Instagram (comment on a post, write a DM, mention the account in a story
// or reply to one), the App Dashboard's webhook setting, a second delivery of an event, the call
// log, faults, and the sandbox clock.
import { ApiError, type ApiRequest, type Router, route, sendJson } from '../official/server.ts'
import { callAppCallback } from './app-callbacks.ts'
import type { Webhooks } from './webhooks.ts'
import type { AccountType, Fault, IgAccount, MessageKind, MetaWorld } from './world.ts'

function fail(status: number, message: string): ApiError {
  return new ApiError(status, { error: message })
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.trim()) throw fail(400, `${name} is required`)
  return value
}

export function registerControl(router: Router, world: MetaWorld, webhooks: Webhooks): void {
  const on = (method: string, path: string, handler: (req: ApiRequest) => unknown) =>
    route(router, method, `/__sandbox${path}`, async (req) => {
      const result = await handler(req)
      if (!req.res.headersSent) sendJson(req.res, 200, result ?? { ok: true })
    })
  const account = (value: unknown): IgAccount => {
    const key = text(value, 'account')
    const found = world.accountById(key) ?? world.accountByUsername(key)
    if (!found) throw fail(404, `No account ${key}`)
    return found
  }
  const publicAccount = (a: IgAccount) => ({
    id: a.id,
    app_scoped_id: a.appScopedId,
    username: a.username,
    account_type: a.accountType,
    subscribed_fields: a.subscribedFields,
  })

  /** One incoming DM-like event: stored (it opens the 24-hour window) and delivered on `messages`. */
  const incoming = (
    req: ApiRequest,
    kind: MessageKind,
    message: (mid: string) => Record<string, unknown>,
    body: string,
  ) => {
    const target = account(req.body.account)
    const person = world.person(text(req.body.from, 'from'))
    const mid = world.newMid(target.id)
    const timestamp = world.now()
    world.state.messages.push({
      mid,
      accountId: target.id,
      peerId: person.igsid,
      direction: 'in',
      text: body,
      timestamp,
      kind,
      tag: null,
      commentId: null,
    })
    world.changed()
    const delivery = webhooks.emit(target.id, 'messages', {
      messaging: [
        {
          sender: { id: person.igsid },
          recipient: { id: target.id },
          timestamp,
          message: { mid, ...message(mid) },
        },
      ],
    })
    return { mid, sender_id: person.igsid, delivery_id: delivery?.id ?? null }
  }

  on('GET', '/health', () => ({ ok: true }))
  on('POST', '/reset', () => world.reset())

  on('GET', '/accounts', () => world.state.accounts.map(publicAccount))
  on('POST', '/accounts', (req) => {
    const type = (req.body.account_type ?? 'BUSINESS') as AccountType
    if (!['BUSINESS', 'MEDIA_CREATOR', 'PERSONAL'].includes(type))
      throw fail(400, 'account_type: BUSINESS, MEDIA_CREATOR or PERSONAL')
    const username = text(req.body.username, 'username')
    if (world.accountByUsername(username)) throw fail(409, `@${username} exists`)
    return publicAccount(
      world.createAccount({
        username,
        password: text(req.body.password, 'password'),
        name: req.body.name as string | undefined,
        accountType: type,
      }),
    )
  })
  on('POST', '/media', (req) => {
    const owner = account(req.body.account)
    const type = (req.body.media_product_type ?? 'FEED') as 'FEED' | 'REELS' | 'STORY'
    if (!['FEED', 'REELS', 'STORY'].includes(type))
      throw fail(400, 'media_product_type: FEED, REELS or STORY')
    const media = world.addMedia(owner.id, String(req.body.caption ?? ''), type)
    return { id: media.id, permalink: media.permalink }
  })
  on('POST', '/people/available', (req) => {
    const person = world.person(text(req.body.username, 'username'))
    person.available = req.body.available !== false
    world.changed()
    return person
  })

  on('POST', '/comments', (req) => {
    const target = account(req.body.account)
    const person = world.person(text(req.body.from, 'from'))
    const body = text(req.body.text, 'text')
    const mediaId =
      (req.body.media_id as string | undefined) ??
      world.state.media
        .filter((m) => m.accountId === target.id && m.productType !== 'STORY')
        .sort((a, b) => b.timestamp - a.timestamp)[0]?.id
    const media = world.state.media.find((m) => m.id === mediaId && m.accountId === target.id)
    if (!media) throw fail(404, 'No such media on this account')
    const parentId = (req.body.parent_id as string | undefined) ?? null
    if (parentId && !world.state.comments.some((c) => c.id === parentId && c.mediaId === media.id))
      throw fail(404, 'No such parent comment')
    const comment = {
      id: world.numericId('178', 17),
      accountId: target.id,
      mediaId: media.id,
      fromId: person.igsid,
      fromUsername: person.username,
      text: body,
      timestamp: world.now(),
      parentId,
      privateReplyMid: null,
      replies: [],
    }
    world.state.comments.push(comment)
    world.changed()
    const delivery = webhooks.emit(target.id, 'comments', {
      changes: [
        {
          field: 'comments',
          value: {
            from: { id: person.igsid, username: person.username },
            media: { id: media.id, media_product_type: media.productType },
            id: comment.id,
            ...(parentId ? { parent_id: parentId } : {}),
            text: body,
          },
        },
      ],
    })
    return {
      comment_id: comment.id,
      media_id: media.id,
      from_id: person.igsid,
      delivery_id: delivery?.id ?? null,
    }
  })

  on('POST', '/messages', (req) => {
    const body = text(req.body.text, 'text')
    return incoming(req, 'message', () => ({ text: body }), body)
  })
  on('POST', '/story-mentions', (req) => {
    const url = `https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=${world.numericId('', 17)}`
    return incoming(
      req,
      'story_mention',
      () => ({ attachments: [{ type: 'story_mention', payload: { url } }] }),
      '',
    )
  })
  on('POST', '/story-replies', (req) => {
    const target = account(req.body.account)
    const story =
      world.state.media.find((m) => m.accountId === target.id && m.productType === 'STORY') ??
      world.addMedia(target.id, '', 'STORY')
    const body = text(req.body.text, 'text')
    const url = `https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=${story.id}`
    return incoming(
      req,
      'story_reply',
      () => ({ text: body, reply_to: { story: { url, id: story.id } } }),
      body,
    )
  })

  on('GET', '/conversations', (req) => {
    const owner = account(req.url.searchParams.get('account'))
    const peer = req.url.searchParams.get('peer')
    return world.state.messages.filter(
      (m) =>
        m.accountId === owner.id &&
        (!peer || m.peerId === peer || world.personById(m.peerId)?.username === peer),
    )
  })
  on('GET', '/comments', (req) => {
    const owner = account(req.url.searchParams.get('account'))
    return world.state.comments.filter((c) => c.accountId === owner.id)
  })

  on('POST', '/webhook', async (req) =>
    webhooks.verifyCallback(text(req.body.url, 'url'), text(req.body.verify_token, 'verify_token')),
  )
  on('POST', '/app', (req) => {
    // what App Review granted the app (the local app has the Human Agent feature unless a test says not)
    if (typeof req.body.human_agent_approved !== 'boolean')
      throw fail(400, 'human_agent_approved (boolean) is required')
    world.state.app.humanAgentApproved = req.body.human_agent_approved
    world.changed()
    return { human_agent_approved: world.state.app.humanAgentApproved }
  })
  on('GET', '/deliveries', (req) => {
    const owner = req.url.searchParams.get('account')
    return world.state.deliveries.filter((d) => !owner || d.accountId === account(owner).id)
  })
  on('POST', '/deliveries/:id/redeliver', async (req) => {
    const delivery = world.state.deliveries.find((d) => d.id === req.params.id)
    if (!delivery) throw fail(404, 'No such delivery')
    return { status: await webhooks.redeliver(delivery) }
  })
  on('POST', '/deliveries/pump', async () => webhooks.pump())

  on('GET', '/calls', (req) => {
    const since = Number(req.url.searchParams.get('since') ?? 0)
    const owner = req.url.searchParams.get('account')
    const ownerId = owner ? account(owner).id : null
    return world.state.calls.filter((c) => c.id > since && (!ownerId || c.accountId === ownerId))
  })

  on('POST', '/tokens/revoke', async (req) => {
    // the person removed the app in Instagram's settings: every token of the account stops working,
    // and Meta tells the app on its deauthorize callback
    const owner = account(req.body.account)
    world.state.tokens = world.state.tokens.filter((t) => t.accountId !== owner.id)
    owner.subscribedFields = []
    world.changed()
    return { deauthorize: await callAppCallback(world, 'deauthorize', owner) }
  })
  on('POST', '/data-deletion', async (req) =>
    // the person asked, in Instagram's settings, for the data the app holds about them to be deleted
    callAppCallback(world, 'data_deletion', account(req.body.account)),
  )

  on('POST', '/faults', (req) => {
    const fault: Fault = {
      account: req.body.account ? account(req.body.account).id : null,
      target: (req.body.target ?? 'any') as Fault['target'],
      mode: (req.body.mode ?? 'http_500') as Fault['mode'],
      code: typeof req.body.code === 'number' ? req.body.code : null,
      subcode: typeof req.body.subcode === 'number' ? req.body.subcode : null,
      count: typeof req.body.count === 'number' ? req.body.count : 1,
    }
    if (!['messages', 'comments', 'any'].includes(fault.target))
      throw fail(400, 'target: messages, comments or any')
    if (!['http_500', 'ack_lost', 'error'].includes(fault.mode))
      throw fail(400, 'mode: http_500, ack_lost or error')
    world.state.faults.push(fault)
    world.changed()
    return fault
  })

  on('GET', '/clock', () => ({ now: world.now(), offset_ms: world.clock.offsetMs }))
  on('POST', '/clock', async (req) => {
    if (typeof req.body.advance_ms === 'number') world.clock.advance(req.body.advance_ms)
    else if (typeof req.body.offset_ms === 'number') world.clock.setOffset(req.body.offset_ms)
    else throw fail(400, 'advance_ms or offset_ms is required')
    world.changed()
    await webhooks.pump()
    return { now: world.now(), offset_ms: world.clock.offsetMs }
  })
}

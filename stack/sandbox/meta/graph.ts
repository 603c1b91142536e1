// The Graph API of Instagram API with Instagram Login (graph.instagram.com, versioned `/v23.0/…`
// or not): the profile, media, comments and their public replies, the webhook subscription of an
// account, and the Send API (send-api.ts). Every answer carries the usage headers Meta sends.
import { type ApiRequest, type Router, route, sendJson } from '../official/server.ts'
import { GRAPH } from './errors.ts'
import { authenticate, type Caller, iso, pick, takeFault } from './graph-common.ts'
import { registerSendApi } from './send-api.ts'
import type { Webhooks } from './webhooks.ts'
import { DAY, type MetaWorld, type Person } from './world.ts'

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

  // /media is the feed's posts and reels; stories are only at /stories, and only for their 24 hours
  on('GET', '/me/media', (req) => mediaList(req, 'me', 'media'))
  on('GET', '/:id/media', (req) => mediaList(req, req.params.id, 'media'))
  on('GET', '/me/stories', (req) => mediaList(req, 'me', 'stories'))
  on('GET', '/:id/stories', (req) => mediaList(req, req.params.id, 'stories'))
  function mediaList(req: ApiRequest, id: string | undefined, edge: 'media' | 'stories') {
    const caller = authenticate(world, req, 'instagram_business_basic')
    self(req, caller, id)
    const limit = Math.min(100, Math.max(1, Number(req.url.searchParams.get('limit') ?? 25) || 25))
    const now = world.now()
    const all = world.state.media
      .filter(
        (m) =>
          m.accountId === caller.account.id &&
          (edge === 'media'
            ? m.productType !== 'STORY'
            : m.productType === 'STORY' && m.timestamp > now - DAY),
      )
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

  registerSendApi(on, self, world, webhooks)

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
    const person = world.personById(id)
    if (person) return sendJson(req.res, 200, pick(userProfile(caller, person), req, ['id']))
    throw GRAPH.noObject(id)
  })

  /**
   * The User Profile API: an Instagram-scoped id's profile, only once that person wrote to the
   * account (a DM, a story reply or mention: their consent), never someone who blocked it.
   */
  const userProfile = (caller: Caller, person: Person) => {
    if (!caller.token.scopes.includes('instagram_business_manage_messages')) throw GRAPH.permission()
    if (world.lastIncomingAt(caller.account.id, person.igsid) === null) throw GRAPH.noConsent()
    if (!person.available) throw GRAPH.noObject(person.igsid)
    return {
      id: person.igsid,
      name: person.name,
      username: person.username,
      profile_pic: `https://scontent.cdninstagram.com/v/t51/${person.igsid}.jpg`,
      follower_count: 0,
      is_user_follow_business: false,
      is_business_follow_user: false,
      is_verified_user: false,
    }
  }
}

// The Send API of the Meta sandbox (POST /me/messages or /{ig-user-id}/messages): a DM only within
// 24 hours of the person's last message (HUMAN_AGENT: 7 days); a private reply to a comment once,
// within 7 days of it, at most 750 an hour; someone unavailable is refused with 551. Every message
// sent comes back as an echo webhook, as on Instagram.
import { type ApiRequest, sendJson } from '../official/server.ts'
import { GRAPH } from './errors.ts'
import { authenticate, type Caller, parseJsonParam, takeFault } from './graph-common.ts'
import type { Webhooks } from './webhooks.ts'
import { DAY, HOUR, type MetaWorld } from './world.ts'

/** Private replies an account may send per hour (Meta's Private Replies API limit). */
export const PRIVATE_REPLIES_PER_HOUR = 750
const MAX_TEXT_BYTES = 1000
const STANDARD_WINDOW_MS = DAY
const HUMAN_AGENT_WINDOW_MS = 7 * DAY
const PRIVATE_REPLY_WINDOW_MS = 7 * DAY

type On = (method: string, path: string, handler: (req: ApiRequest) => void) => void
type Self = (req: ApiRequest, caller: Caller, id: string | undefined) => void

export function registerSendApi(on: On, self: Self, world: MetaWorld, webhooks: Webhooks): void {
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
    // a tag only counts on a message sent as MESSAGE_TAG (the Send API's messaging_type)
    const messagingType = (req.body.messaging_type ?? req.url.searchParams.get('messaging_type') ?? null) as
      | string
      | null
    if (messagingType !== null && !['RESPONSE', 'UPDATE', 'MESSAGE_TAG'].includes(messagingType))
      throw GRAPH.param(
        `Param messaging_type must be one of {RESPONSE, UPDATE, MESSAGE_TAG} - got "${messagingType}".`,
      )
    if ((tag !== null) !== (messagingType === 'MESSAGE_TAG'))
      throw GRAPH.param('A tag is sent with messaging_type MESSAGE_TAG, and MESSAGE_TAG needs a tag')
    // the tag is a feature an app gets through App Review, not a parameter anyone may send
    if (tag === 'HUMAN_AGENT' && !world.state.app.humanAgentApproved) throw GRAPH.permission()
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
}

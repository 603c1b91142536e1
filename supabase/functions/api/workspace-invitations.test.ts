// /workspaces/:id/invitations in-process against the test stack: the invitation mail through Auth's
// admin invite into the local outbox with the link SITE_URL/invite/<token>, a login that already
// exists (no mail, the link to pass on), resend (a new link), and the refusals with the spec's words.
import assert from 'node:assert/strict'
import type { InvitationSent } from '@reachflow/domain'
import { requireEnv } from '../_shared/env.ts'
import { functionRequest, jsonOf, newCustomer, serviceDb, stackEnv } from '../_shared/test-stack.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

const env = stackEnv()
const api = createApiHandler(defaultDeps(env))
const siteUrl = requireEnv('SITE_URL', env).replace(/\/+$/, '')

interface Mail {
  to: string
  subject: string
  links: string[]
}

async function outbox(email: string): Promise<Mail[]> {
  const response = await fetch(
    `${requireEnv('SUPABASE_URL', env)}/_outbox.json?to=${encodeURIComponent(email)}`,
  )
  assert.equal(response.status, 200)
  return (await response.json()) as Mail[]
}

const invite = (token: string, workspace: string, body: unknown) =>
  api(functionRequest('api', `/workspaces/${workspace}/invitations`, { method: 'POST', token, body }))
const resend = (token: string, workspace: string, invitation: string) =>
  api(
    functionRequest('api', `/workspaces/${workspace}/invitations/${invitation}/resend`, {
      method: 'POST',
      token,
    }),
  )
const uniqueAddress = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@functions.test`

Deno.test('an owner invites a new address: Auth mails the invitation link, and a resend mails a new one', async () => {
  const owner = await newCustomer('ws-invite-owner')
  const email = uniqueAddress('ws-invitee')
  const response = await invite(owner.token, owner.id, { email: `  ${email.toUpperCase()} `, role: 'agent' })
  const sent = await jsonOf<InvitationSent>(response)
  assert.equal(response.status, 201, JSON.stringify(sent))
  assert.equal(sent.mailed, true)
  assert.equal(sent.invitation.email, email)
  assert.match(sent.link, new RegExp(`^${siteUrl}/invite/[0-9a-f]{64}$`))

  const [mail] = await outbox(email)
  assert.equal(mail?.subject, 'You have been invited')
  assert.equal(new URL(mail?.links[0] ?? '').searchParams.get('redirect_to'), sent.link)
  const stored = await serviceDb(env)
    .from('workspace_invitations')
    .select('token_hash')
    .eq('id', sent.invitation.id)
    .single()
  assert.notEqual(stored.data?.token_hash, sent.link.split('/').pop(), 'the token itself is never stored')

  const again = await resend(owner.token, owner.id, sent.invitation.id)
  const resent = await jsonOf<InvitationSent>(again)
  assert.equal(again.status, 200, JSON.stringify(resent))
  assert.equal(resent.mailed, true, 'an invitee who never opened the mail is mailed again')
  assert.notEqual(resent.link, sent.link)
  const mails = await outbox(email)
  assert.equal(mails.length, 2)
  assert.equal(new URL(mails[0]?.links[0] ?? '').searchParams.get('redirect_to'), resent.link)

  const duplicate = await invite(owner.token, owner.id, { email, role: 'viewer' })
  assert.equal(duplicate.status, 409)
  assert.deepEqual(await jsonOf(duplicate), {
    error: 'This e-mail address already has a pending invitation. Resend it instead.',
  })
})

Deno.test('someone who already has a login gets no mail from Auth, and the inviter gets the link', async () => {
  const owner = await newCustomer('ws-invite-owner2')
  const member = await newCustomer('ws-existing')
  const response = await invite(owner.token, owner.id, { email: member.email, role: 'editor' })
  const sent = await jsonOf<InvitationSent>(response)
  assert.equal(response.status, 201, JSON.stringify(sent))
  assert.equal(sent.mailed, false)
  assert.equal(
    sent.message,
    `${member.email} already has a Reachflow login, so no e-mail was sent. Send them the invitation link.`,
  )
  assert.deepEqual(await outbox(member.email), [])
  const token = sent.link.split('/').pop() ?? ''
  const accepted = await member.db.rpc('accept_invitation', { p_token: token })
  assert.equal(accepted.error, null)
  assert.equal(accepted.data, owner.id)
})

Deno.test('non-members, roles below admin, a bad body and no sign-in are refused', async () => {
  const owner = await newCustomer('ws-invite-owner3')
  const agent = await newCustomer('ws-agent')
  const stranger = await newCustomer('ws-stranger')
  const added = await serviceDb(env)
    .from('workspace_members')
    .insert({ workspace_id: owner.id, user_id: agent.id, role: 'agent' })
  assert.equal(added.error, null)

  const byAgent = await invite(agent.token, owner.id, { email: uniqueAddress('x'), role: 'viewer' })
  assert.equal(byAgent.status, 403)
  assert.deepEqual(await jsonOf(byAgent), { error: 'Your role in this workspace does not allow this.' })
  const byStranger = await invite(stranger.token, owner.id, { email: uniqueAddress('x'), role: 'viewer' })
  assert.equal(byStranger.status, 403)
  assert.deepEqual(await jsonOf(byStranger), { error: 'You are not a member of this workspace.' })

  const asOwner = await invite(owner.token, owner.id, { email: uniqueAddress('x'), role: 'owner' })
  assert.equal(asOwner.status, 400)
  const malformed = await invite(owner.token, owner.id, { email: 'nobody', role: 'viewer' })
  assert.equal(malformed.status, 400)
  assert.deepEqual(await jsonOf(malformed), { error: 'Enter a valid e-mail address' })
  const anonymous = await invite('', owner.id, { email: uniqueAddress('x'), role: 'viewer' })
  assert.equal(anonymous.status, 401)
})

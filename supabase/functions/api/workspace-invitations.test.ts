// /workspaces/:id/invitations in-process against the test stack: the invitation mail through Auth's
// admin invite into the local outbox with the link SITE_URL/invite/<token>, a login that already
// exists (a magic link to the same page), resend (a new link), and the refusals with the spec's words.
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

/** Follows a mailed Auth link as the invitee's browser would: where it lands, and the session it carries. */
async function follow(mailedLink: string): Promise<{ landed: URL; accessToken: string }> {
  const opened = await fetch(new URL(mailedLink), { redirect: 'manual' })
  await opened.body?.cancel()
  const landed = new URL(opened.headers.get('location') ?? '')
  return { landed, accessToken: new URLSearchParams(landed.hash.slice(1)).get('access_token') ?? '' }
}

/** accept_invitation with the invitee's session and the token of the invitation's page link. */
function accept(accessToken: string, invitationLink: string): Promise<Response> {
  return fetch(`${requireEnv('SUPABASE_URL', env)}/rest/v1/rpc/accept_invitation`, {
    method: 'POST',
    headers: {
      apikey: requireEnv('SUPABASE_ANON_KEY', env),
      Authorization: `Bearer ${accessToken}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ p_token: invitationLink.split('/').pop() }),
  })
}

Deno.test('an owner invites a new address: Auth mails the invitation link, and a resend mails a new one', async () => {
  const owner = await newCustomer('ws-invite-owner')
  const email = uniqueAddress('ws-invitee')
  const response = await invite(owner.token, owner.id, { email: `  ${email.toUpperCase()} `, role: 'agent' })
  const sent = await jsonOf<InvitationSent>(response)
  assert.equal(response.status, 201, JSON.stringify(sent))
  assert.equal(sent.message, `Invitation sent to ${email}`)
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

Deno.test('someone who already has a login is mailed a magic link that signs them in on the invitation', async () => {
  const owner = await newCustomer('ws-invite-owner2')
  const member = await newCustomer('ws-existing')
  const response = await invite(owner.token, owner.id, { email: member.email, role: 'editor' })
  const sent = await jsonOf<InvitationSent>(response)
  assert.equal(response.status, 201, JSON.stringify(sent))
  assert.equal(sent.message, `Invitation sent to ${member.email}`)

  const [mail] = await outbox(member.email)
  assert.equal(mail?.subject, 'Your Magic Link')
  const link = new URL(mail?.links[0] ?? '')
  assert.equal(link.searchParams.get('type'), 'magiclink')
  assert.equal(link.searchParams.get('redirect_to'), sent.link)
  const { landed, accessToken } = await follow(link.toString())
  assert.equal(`${landed.origin}${landed.pathname}`, sent.link)
  const accepted = await accept(accessToken, sent.link)
  assert.equal(accepted.status, 200)
  assert.equal(await accepted.json(), owner.id)

  // Auth mails one address once a minute: a resend at once is refused with its words, and says so.
  const other = await newCustomer('ws-existing2')
  const first = await jsonOf<InvitationSent>(
    await invite(owner.token, owner.id, { email: other.email, role: 'viewer' }),
  )
  const soon = await resend(owner.token, owner.id, first.invitation.id)
  assert.equal(soon.status, 429)
  const refused = await jsonOf<{ error: string }>(soon)
  assert.match(
    refused.error,
    new RegExp(
      `^The invitation to ${other.email} is saved, but no e-mail could go out yet: For security purposes, you can only request this after \\d+ seconds\\. Then resend it\\.$`,
    ),
  )
  assert.equal((await outbox(other.email)).length, 1)
  // The refused resend keeps the link already mailed: the invitee can still join with it.
  const [firstMail] = await outbox(other.email)
  const joined = await accept((await follow(firstMail?.links[0] ?? '')).accessToken, first.link)
  assert.equal(joined.status, 200, await joined.clone().text())
  assert.equal(await joined.json(), owner.id)
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

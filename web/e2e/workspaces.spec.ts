// Workspaces end to end on the real stack: an owner creates a client workspace and invites an agent
// by e-mail; the agent follows the outbox link, joins, chooses a password and sees only the inbox
// (other pages say the role does not allow them); a revoked and an expired link say so; the owner
// changes the agent's role and removes them, after which their very next request is refused.
import { expect, type Page, test } from '@playwright/test'
import { sql } from './db'
import { completeOnboarding } from './runner-process'
import { apiUrl, outboxLink, signUpThroughApi, uniqueEmail } from './support'

const NOT_ALLOWED = 'Your role in this workspace does not allow this.'
/** Set to docs/screenshots (absolute) to refresh the screenshots of these screens. */
const shots = process.env.WORKSPACES_SCREENSHOTS_DIR

async function shot(page: Page, name: string, reopen?: () => Promise<unknown>) {
  if (!shots) return
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    if (reopen) await reopen()
    await page.screenshot({ path: `${shots}/workspaces-${name}-${width}.png`, fullPage: !reopen })
    if (reopen) await page.keyboard.press('Escape')
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

async function openSwitcher(page: Page) {
  await page.getByRole('button', { name: /^Workspace: / }).click()
  return page.getByRole('menu', { name: 'Workspaces' })
}

async function invite(page: Page, email: string, role: string) {
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Role', { exact: true }).selectOption({ label: role })
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible()
}

/** What an invitation link opens to, in a browser without anyone signed in. */
async function openLinkSignedOut(page: Page, link: string) {
  await page.context().clearCookies()
  await page.goto(link)
}

test('invite an agent by e-mail, who joins from the outbox link and sees only the inbox; revoke, expiry, role change and removal', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000)
  const ownerEmail = uniqueEmail('ws-owner')
  await signUpThroughApi(page, ownerEmail, 'owner-password-1')
  await completeOnboarding(ownerEmail)
  await page.goto('/dashboard')

  // A client workspace, created from the switcher, becomes the active one.
  const workspaceName = `Client ${Date.now().toString(36).slice(-5)}`
  await (await openSwitcher(page)).getByRole('menuitem', { name: 'Create workspace' }).click()
  const create = page.getByRole('dialog', { name: 'Create workspace' })
  await create.getByRole('button', { name: 'Create workspace' }).click()
  await expect(create.getByText('Workspace name is required')).toBeVisible()
  await create.getByLabel('Workspace name').fill(workspaceName)
  await create.getByRole('button', { name: 'Create workspace' }).click()
  await expect(page.getByRole('button', { name: `Workspace: ${workspaceName}` })).toBeVisible({
    timeout: 60_000,
  })
  await shot(page, 'switcher', async () => expect(await openSwitcher(page)).toBeVisible())

  await (await openSwitcher(page)).getByRole('menuitem', { name: 'Members' }).click()
  await expect(page).toHaveURL(/\/settings\/members$/)
  await expect(page.getByRole('heading', { name: 'Members' }).first()).toBeVisible()
  await expect(page.getByText('No pending invitations')).toBeVisible()

  const agentEmail = uniqueEmail('ws-agent')
  const revokedEmail = uniqueEmail('ws-revoked')
  const lateEmail = uniqueEmail('ws-late')
  await invite(page, agentEmail, 'Agent')
  await invite(page, revokedEmail, 'Viewer')
  await invite(page, lateEmail, 'Editor')
  const pending = page.getByRole('list', { name: 'Pending invitations' })
  await expect(pending.getByRole('listitem')).toHaveCount(3)
  await page.getByLabel('E-mail address').fill(agentEmail)
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(
    page.getByText('This e-mail address already has a pending invitation. Resend it instead.'),
  ).toBeVisible()

  // Revoked: the list drops it and its link says so.
  await page.getByRole('button', { name: `Revoke the invitation to ${revokedEmail}` }).click()
  await expect(page.getByText(`The invitation to ${revokedEmail} was revoked`)).toBeVisible()
  await expect(pending.getByRole('listitem')).toHaveCount(2)

  // Expired: seven days pass for this invitation (its expiry is moved back, as the clock would).
  await sql(
    `update public.workspace_invitations set expires_at = now() - interval '1 minute' where email = $1`,
    [lateEmail],
  )

  const invitee = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const agent = await invitee.newPage()
  if (shots) {
    await agent.goto('/invite/shown-signed-out')
    await expect(
      agent.getByText('You have been invited to a Reachflow workspace.', { exact: false }),
    ).toBeVisible()
    await shot(agent, 'invite-signed-out')
  }
  await openLinkSignedOut(agent, await outboxLink(revokedEmail, '/auth/v1/verify'))
  await expect(agent.getByRole('alert')).toHaveText('This invitation was revoked.')
  await agent.evaluate(() => localStorage.clear())
  await openLinkSignedOut(agent, await outboxLink(lateEmail, '/auth/v1/verify'))
  await expect(agent.getByRole('alert')).toHaveText('This invitation has expired. Ask for a new invitation.')
  await agent.evaluate(() => localStorage.clear())

  // The agent follows the mail's link, joins and chooses a password.
  await openLinkSignedOut(agent, await outboxLink(agentEmail, '/auth/v1/verify'))
  await expect(agent.getByRole('heading', { name: 'You joined the workspace' })).toBeVisible()
  await shot(agent, 'invite-joined')
  await agent.getByLabel('Choose a password').fill('agent-password-1')
  await agent.getByRole('button', { name: 'Save password and continue' }).click()
  await expect(agent).toHaveURL(/\/dashboard/)
  await expect(agent.getByRole('button', { name: `Workspace: ${workspaceName}` })).toBeVisible()
  const sections = agent.getByRole('tablist', { name: 'Dashboard sections' })
  await expect(sections.getByRole('tab')).toHaveText([/Inbox/])
  await expect(agent.getByRole('button', { name: 'New Campaign' })).toHaveCount(0)
  await agent.goto('/dashboard?tab=campaigns')
  await expect(agent.getByRole('heading', { name: NOT_ALLOWED })).toBeVisible()
  // Billing names who manages it instead of offering buttons.
  await agent.goto('/billing')
  await expect(agent.getByTestId('owner-manages-billing')).toContainText(
    `(owner) manages the plan and payments of ${workspaceName}.`,
  )
  await agent.goto('/settings/members')
  await expect(agent.getByRole('heading', { name: NOT_ALLOWED })).toBeVisible()

  // The owner sees the agent joined, makes them a viewer, then removes them.
  await page.reload()
  const members = page.getByRole('list', { name: 'Members' })
  await expect(members.getByText(agentEmail, { exact: true })).toBeVisible()
  await expect(pending.getByRole('listitem')).toHaveCount(1)
  await shot(page, 'members')
  await page.getByLabel(`Role of ${agentEmail}`).selectOption({ label: 'Viewer' })
  await expect(page.getByText(`${agentEmail} is now a viewer`)).toBeVisible()
  await agent.goto('/dashboard')
  await expect(sections.getByRole('tab', { name: /Campaigns/ })).toBeVisible()
  await expect(sections.getByRole('tab', { name: /Inbox/ })).toHaveCount(0)

  const workspaceId = (
    await sql<{ id: string }>('select id::text from public.workspaces where name = $1', [workspaceName])
  )[0]?.id
  await page.getByRole('button', { name: `Remove ${agentEmail}` }).click()
  const confirm = page.getByRole('dialog', { name: 'Remove member' })
  await confirm.getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByText(`${agentEmail} was removed from ${workspaceName}`)).toBeVisible()
  await expect(members.getByText(agentEmail, { exact: true })).toHaveCount(0)

  // The removed member's next request, with the same still-valid token, is refused at once.
  const refused = await agent.evaluate(
    async ({ api, workspace }) => {
      const key = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k)) ?? ''
      const token = JSON.parse(localStorage.getItem(key) ?? '{}').access_token as string
      const response = await fetch(`${api}/functions/v1/api/workspaces/${workspace}/invitations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.com', role: 'viewer' }),
      })
      return { status: response.status, body: await response.json() }
    },
    { api: apiUrl, workspace: workspaceId },
  )
  expect(refused).toEqual({ status: 403, body: { error: 'You are not a member of this workspace.' } })
  await agent.reload()
  await expect(agent.getByRole('button', { name: `Workspace: ${workspaceName}` })).toHaveCount(0)
  await invitee.close()
})

test('workspace settings: rename, the typed name guarding delete, and falling back to the personal workspace', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const email = uniqueEmail('ws-settings')
  await signUpThroughApi(page, email, 'settings-password-1')
  await completeOnboarding(email)
  await page.goto('/dashboard')
  const personal = (await page.getByRole('button', { name: /^Workspace: / }).getAttribute('aria-label')) ?? ''

  await (await openSwitcher(page)).getByRole('menuitem', { name: 'Create workspace' }).click()
  await page.getByRole('dialog', { name: 'Create workspace' }).getByLabel('Workspace name').fill('Old name')
  await page.getByRole('button', { name: 'Create workspace' }).last().click()
  // Creating reloads the whole app in the new workspace: a page load, not a re-render.
  await expect(page.getByRole('button', { name: 'Workspace: Old name' })).toBeVisible({ timeout: 60_000 })

  await (await openSwitcher(page)).getByRole('menuitem', { name: 'Workspace settings' }).click()
  await expect(page.getByRole('heading', { name: 'Workspace settings' })).toBeVisible()
  await page.getByLabel('Workspace name').fill('New name')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Workspace renamed')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Workspace: New name' })).toBeVisible()

  await page.getByRole('button', { name: 'Delete workspace' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete workspace' })
  const remove = confirm.getByRole('button', { name: 'Delete workspace' })
  await confirm.getByLabel(/to confirm/).fill('new name')
  await expect(remove).toBeDisabled()
  await confirm.getByLabel(/to confirm/).fill('New name')
  await remove.click()
  await expect(page).toHaveURL(/\/dashboard/)
  await expect(page.getByRole('button', { name: personal })).toBeVisible({ timeout: 60_000 })
  const menu = await openSwitcher(page)
  await expect(menu.getByRole('menuitemradio')).toHaveCount(1)
})

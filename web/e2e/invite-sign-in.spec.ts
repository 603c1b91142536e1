// Invitations for people who arrive signed out on the real stack: someone who already has a login is
// mailed a magic link through the outbox that signs them in on the invitation, which they join; and
// someone who signs in on the invitation, with a password or with Google (through the Google
// sandbox), comes back to it and joins.
import { expect, type Page, test } from '@playwright/test'
import { sql } from './db'
import { completeOnboarding } from './runner-process'
import { outboxLink, signUpThroughApi, uniqueEmail } from './support'

/** An owner with a finished onboarding, on the Members page of their personal workspace; its name. */
async function ownerOnMembersPage(page: Page): Promise<string> {
  const ownerEmail = uniqueEmail('inv-owner')
  await signUpThroughApi(page, ownerEmail, 'owner-password-1')
  await completeOnboarding(ownerEmail)
  await page.goto('/settings/members')
  await expect(page.getByRole('heading', { name: 'Members' }).first()).toBeVisible()
  const [workspace] = await sql<{ name: string }>(
    `select w.name from public.workspaces w join auth.users u on u.id = w.created_by where u.email = $1`,
    [ownerEmail],
  )
  return workspace?.name ?? ''
}

async function invite(page: Page, email: string, role: string) {
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Role', { exact: true }).selectOption({ label: role })
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible()
}

/** The invitation page the mail to `email` leads to, once its link has signed the person in. */
async function invitationPath(email: string): Promise<string> {
  const mailLink = new URL(await outboxLink(email, '/auth/v1/verify'))
  const path = new URL(mailLink.searchParams.get('redirect_to') ?? '').pathname
  expect(path).toMatch(/^\/invite\/[0-9a-f]{64}$/)
  return path
}

async function membership(email: string): Promise<string[]> {
  const rows = await sql<{ name: string; role: string }>(
    `select w.name, m.role::text as role from public.workspace_members m
       join public.workspaces w on w.id = m.workspace_id
       join auth.users u on u.id = m.user_id
      where u.email = $1 and w.created_by <> u.id`,
    [email],
  )
  return rows.map((r) => `${r.name} ${r.role}`)
}

test('someone who already has a login is e-mailed the invitation, and its link signs them in to join', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000)
  const invitee = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const member = await invitee.newPage()
  const memberEmail = uniqueEmail('inv-existing')
  await signUpThroughApi(member, memberEmail, 'member-password-1')
  await completeOnboarding(memberEmail)
  await member.evaluate(() => localStorage.clear())

  const workspaceName = await ownerOnMembersPage(page)
  await invite(page, memberEmail, 'Editor')

  await member.goto(await outboxLink(memberEmail, '/auth/v1/verify'))
  await expect(member).toHaveURL(/\/dashboard/, { timeout: 60_000 })
  await expect(member.getByRole('button', { name: `Workspace: ${workspaceName}` })).toBeVisible()
  expect(await membership(memberEmail)).toEqual([`${workspaceName} editor`])
  await invitee.close()
})

test('Google sign-in started on an invitation comes back to it and joins', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const googleEmail = uniqueEmail('inv-google')
  const workspaceName = await ownerOnMembersPage(page)
  await invite(page, googleEmail, 'Agent')
  const path = await invitationPath(googleEmail)

  const invitee = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const guest = await invitee.newPage()
  await guest.goto(path)
  await expect(
    guest.getByText('You have been invited to a Reachflow workspace.', { exact: false }),
  ).toBeVisible()
  await guest.getByRole('button', { name: 'Sign in with Google' }).click()
  await guest.getByLabel('Use another account').fill(googleEmail)
  await guest.getByLabel('Name').fill('Gus Guest')
  await guest.getByRole('button', { name: 'Continue' }).click()
  await expect(guest).toHaveURL(/\/dashboard/, { timeout: 60_000 })
  await expect(guest.getByRole('button', { name: `Workspace: ${workspaceName}` })).toBeVisible()
  expect(await membership(googleEmail)).toEqual([`${workspaceName} agent`])
  await invitee.close()
})

test('signing in with a password on an invitation comes back to it and joins', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const invitee = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const member = await invitee.newPage()
  const memberEmail = uniqueEmail('inv-password')
  await signUpThroughApi(member, memberEmail, 'member-password-1')
  await completeOnboarding(memberEmail)
  await member.evaluate(() => localStorage.clear())

  const workspaceName = await ownerOnMembersPage(page)
  await invite(page, memberEmail, 'Viewer')
  await member.goto(await invitationPath(memberEmail))
  await member.getByLabel('Email address').fill(memberEmail)
  await member.getByLabel('Password').fill('member-password-1')
  await member.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(member).toHaveURL(/\/dashboard/, { timeout: 60_000 })
  await expect(member.getByRole('button', { name: `Workspace: ${workspaceName}` })).toBeVisible()
  expect(await membership(memberEmail)).toEqual([`${workspaceName} viewer`])
  await invitee.close()
})

// A workspace without a plan sends nothing, and its members are told why and who can fix it: an
// agency owner's client workspace has no plan; the editor working in it sees the banner naming the
// owner above the dashboard and its Campaigns tab, and on the billing page who manages the plan
// instead of buttons; the owner sees the same banner with the way to the billing page; once the
// workspace has a plan the banner is gone. The owner's personal workspace never shows it.
import { expect, type Page, test } from '@playwright/test'
import { adminPage, openTab } from './admin-support'
import { sql } from './db'
import { signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

const BANNER =
  'This workspace has no active plan, so nothing is sent. Olivia Owner (owner) can choose a plan.'

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** Opens the page and waits until it has read the workspace's plan, so an absent banner means something. */
async function openReadingPlan(page: Page, url: string): Promise<void> {
  const planRead = page.waitForResponse(
    (r) => r.url().includes('/rest/v1/rpc/active_workspace_plan') && r.ok(),
  )
  await page.goto(url)
  await planRead
}

async function signUpDone(page: Page, tag: string): Promise<string> {
  const id = await signUpThroughApi(page, uniqueEmail(tag), 'e2e-password-123')
  await skipOnboarding(id)
  return id
}

test('a member of a workspace without a plan sees why nothing sends and who can fix it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  const ownerId = await signUpDone(page, 'ws-plan-owner')
  await sql(`update public.user_profiles set full_name = 'Olivia Owner' where id = $1`, [ownerId])

  // The owner's personal workspace sends on the free plan: no banner.
  await openReadingPlan(page, '/dashboard')
  await expect(page.getByTestId('no-plan-banner')).toHaveCount(0)

  // A client workspace without a plan, with an editor working in it.
  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  const memberId = await signUpDone(member, 'ws-plan-editor')
  const [client] = await sql<{ id: string }>(
    `insert into public.workspaces (name, created_by) values ('Client North', $1) returning id`,
    [ownerId],
  )
  await sql(
    `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'editor')`,
    [client?.id, ownerId, memberId],
  )
  await sql(`update public.user_profiles set active_workspace_id = $1 where id in ($2, $3)`, [
    client?.id,
    ownerId,
    memberId,
  ])

  await member.goto('/dashboard?tab=campaigns')
  const banner = member.getByTestId('no-plan-banner')
  await expect(banner).toHaveText(BANNER)
  await expect(banner.getByRole('link')).toHaveCount(0)
  await shoot(member, 'no-plan-banner-member')

  await member.goto('/billing')
  await expect(member.getByTestId('owner-manages-billing')).toContainText(
    'Olivia Owner (owner) manages the plan and payments of Client North.',
  )
  await expect(member.getByRole('tab')).toHaveCount(0)
  await expect(member.getByRole('button', { name: /plan|cancel|portal/i })).toHaveCount(0)
  await shoot(member, 'billing-member')

  // The owner is told the same and given the way to choose a plan.
  await page.goto('/dashboard')
  const ownerBanner = page.getByTestId('no-plan-banner')
  await expect(ownerBanner).toContainText(BANNER)
  await shoot(page, 'no-plan-banner-owner')
  await ownerBanner.getByRole('link', { name: 'Choose a plan' }).click()
  await expect(page).toHaveURL(/\/billing$/)
  await expect(page.getByRole('tab', { name: 'Subscription' })).toBeVisible()

  // With a plan the workspace sends, and the banner is gone.
  await sql(
    `insert into public.subscriptions (user_id, workspace_id, status, plan_type, accounts_purchased)
     values ($1, $2, 'active', 'growth', 3)`,
    [ownerId, client?.id],
  )
  await openReadingPlan(member, '/dashboard?tab=campaigns')
  await expect(member.getByTestId('no-plan-banner')).toHaveCount(0)
  await memberContext.close()
})

test('the admin Workspaces list finds a client workspace with its owner, members, plan and accounts', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  const ownerId = await signUpDone(page, 'ws-admin-owner')
  const suffix = ownerId.slice(0, 8)
  const [client] = await sql<{ id: string }>(
    `insert into public.workspaces (name, created_by) values ($1, $2) returning id`,
    [`Client ${suffix}`, ownerId],
  )
  const agents = await sql<{ id: string }>(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, created_at, updated_at)
     select gen_random_uuid(), 'authenticated', 'authenticated', 'agent-' || g || '-' || $1 || '@example.com', '', now(), now(), now()
       from generate_series(1, 2) g returning id`,
    [suffix],
  )
  await sql(
    `insert into public.workspace_members (workspace_id, user_id, role)
     select $1::uuid, m.user_id, m.role::public.workspace_role
       from unnest($2::uuid[], $3::text[]) as m(user_id, role)`,
    [client?.id, [ownerId, ...agents.map((a) => a.id)], ['owner', ...agents.map(() => 'agent')]],
  )
  await sql(
    `insert into public.subscriptions (user_id, workspace_id, status, plan_type, accounts_purchased)
     values ($1, $2, 'active', 'growth', 4)`,
    [ownerId, client?.id],
  )
  await sql(
    `insert into public.social_accounts (user_id, workspace_id, platform_id, username, status)
     select $1, $2, p.id, $3, 'active' from public.platforms p where p.name = 'twitter'`,
    [ownerId, client?.id, `wsadmin_${suffix}`],
  )

  const { context, page: admin } = await adminPage(browser)
  await openTab(admin, 'workspaces', 'Workspaces')
  await admin.getByRole('searchbox', { name: 'Search workspaces...' }).fill(`Client ${suffix}`)
  const row = admin.getByRole('row').filter({ hasText: `Client ${suffix}` })
  await expect(row).toContainText(/e2e-ws-admin-owner-.*@example\.com/)
  await expect(row).toContainText('3')
  await expect(row).toContainText('1 owner, 2 agents')
  await expect(row).toContainText('Growth')
  await expect(row).toContainText('Active')
  await expect(row).toContainText('1 / 4')
  await shoot(admin, 'admin-workspaces')
  await row.getByRole('button', { name: `View details of Client ${suffix}` }).click()
  const detail = admin.getByRole('dialog', { name: `Client ${suffix}` })
  const members = detail.getByTestId('workspace-members').getByRole('listitem')
  await expect(members).toHaveCount(3)
  await expect(members.filter({ hasText: 'Owner' })).toHaveCount(1)
  await expect(members.filter({ hasText: 'Agent' })).toHaveCount(2)
  await shoot(admin, 'admin-workspace-detail')
  await context.close()
})

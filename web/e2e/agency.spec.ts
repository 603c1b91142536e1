// The agency scenario of workspaces, end to end on the real stack: an agency owner creates two client
// workspaces, connects an X account and launches a campaign in each; invites an agent to one by
// e-mail; a lead replies there through the X sandbox and the agent answers it, while nothing of the
// other client reaches the agent, on any tab they can open or through the data API with their token;
// then the owner removes the agent and the agent's very next request is refused.
import { expect, type Page, test } from '@playwright/test'
import { testInt } from '../../stack/src/test-seed.ts'
import { sql } from './db'
import { accountIdOf, completeOnboarding, runnerForTheseTests, runSchedulerNow } from './runner-process'
import {
  apiUrl,
  dialog,
  outboxLink,
  scheduleAlwaysOpen,
  signUpThroughApi,
  uniqueEmail,
  xSandbox,
} from './support'

const NOT_MEMBER = 'You are not a member of this workspace.'
const NOT_ALLOWED = 'Your role in this workspace does not allow this.'

type Profile = { id: string; username: string; name: string }

/** One client as the owner sets it up: its workspace, X account, lead and campaign. */
interface Client {
  workspace: string
  workspaceId: string
  account: string
  accountId: string
  lead: Profile
  campaign: string
  campaignId: string
  threadId: string
}

const deliveriesOf = async (account: string) =>
  (
    await xSandbox<{ deliveries: { text: string; recipientUsername: string }[] }>(
      `deliveries?account=${account}`,
    )
  ).deliveries

/** Until `check` passes, running the scheduler's minute (and the account's inbox sync) between tries. */
async function eventually(check: () => Promise<void>, accountId?: string, page?: Page) {
  await expect(async () => {
    try {
      await check()
    } catch (error) {
      await runSchedulerNow(accountId)
      if (page) await page.reload()
      throw error
    }
  }).toPass({ timeout: 240_000, intervals: [3_000, 5_000, 8_000] })
}

async function openSwitcher(page: Page) {
  await page.getByRole('button', { name: /^Workspace: / }).click()
  return page.getByRole('menu', { name: 'Workspaces' })
}

/** The session's access token the app keeps in localStorage. */
async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k)) ?? ''
    return JSON.parse(localStorage.getItem(key) ?? '{}').access_token as string
  })
}

/** A data-API read with the page's own token, as anyone could make it from the browser. */
async function restAs(page: Page, path: string): Promise<unknown[]> {
  const response = await fetch(`${apiUrl}/rest/v1/${path}`, {
    headers: {
      apikey: process.env.SUPABASE_ANON_KEY ?? '',
      Authorization: `Bearer ${await accessToken(page)}`,
    },
  })
  expect(response.status, path).toBe(200)
  return (await response.json()) as unknown[]
}

/** A call to the api function from the page, with the session it holds. */
async function inviteFrom(page: Page, workspaceId: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
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
}

/**
 * The owner's client: a workspace made from the switcher (with a plan, as Stripe would give it), its
 * X account connected through the wizard and tested by the runner, a finished lead source holding
 * one sandbox person (the scraping run itself is the outreach flow's), and a campaign launched from
 * the wizard. Returns once the campaign's DM reached the X sandbox and the lead answered it there.
 */
async function setUpClient(
  page: Page,
  ownerId: string,
  names: { workspace: string; account: string; campaign: string },
  lead: Profile,
): Promise<Client> {
  await (await openSwitcher(page)).getByRole('menuitem', { name: 'Create workspace' }).click()
  const create = page.getByRole('dialog', { name: 'Create workspace' })
  await create.getByLabel('Workspace name').fill(names.workspace)
  await create.getByRole('button', { name: 'Create workspace' }).click()
  // Creating reloads the whole app in the new workspace: a page load's patience.
  await expect(page.getByRole('button', { name: `Workspace: ${names.workspace}` })).toBeVisible({
    timeout: 60_000,
  })
  const [workspace] = await sql<{ id: string }>(
    'select id::text from public.workspaces where name = $1 and created_by = $2',
    [names.workspace, ownerId],
  )
  if (!workspace) throw new Error(`no workspace ${names.workspace}`)
  await sql(
    `insert into public.subscriptions (user_id, workspace_id, status, plan_type, accounts_purchased)
     values ($1, $2, 'active', 'growth', 3)`,
    [ownerId, workspace.id],
  )

  const xAccount = await xSandbox<{ cookies: unknown[] }>('accounts', {
    method: 'POST',
    body: { username: names.account, passcode: '1234', behaviour: { replyShare: 0 } },
  })
  await page.goto('/dashboard?tab=social-accounts')
  await page.getByRole('button', { name: 'Add Account' }).first().click()
  await dialog(page)
    .getByRole('button', { name: /Twitter/ })
    .click()
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByLabel('Username').fill(`@${names.account}`)
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByLabel('Cookies (JSON)').fill(JSON.stringify(xAccount.cookies))
  await dialog(page)
    .getByLabel(/X Chat passcode/)
    .fill('1234')
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByRole('button', { name: 'Add Account' }).click()
  await expect(dialog(page).getByText(`@${names.account} is connected and ready for outreach.`)).toBeVisible({
    timeout: 180_000,
  })
  await dialog(page).getByRole('button', { name: 'Done' }).click()
  const accountId = await accountIdOf(names.account)

  const source = `${names.campaign} leads`
  const [scrape] = await sql<{ id: string }>(
    `insert into public.scraping_campaigns (user_id, workspace_id, account_id, name, sources, target_count, status, leads_collected)
     values ($1, $2, $3, $4, '[{"type": "keyword", "value": "agency"}]', 1, 'completed', 1) returning id`,
    [ownerId, workspace.id, accountId, source],
  )
  await sql(
    `insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, workspace_id, username, profile_data, is_filtered)
     values ($1, $2, $3, $4, jsonb_build_object('display_name', $5::text), false)`,
    [scrape?.id, ownerId, workspace.id, lead.username, lead.name],
  )

  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'New Campaign' }).first().click()
  await dialog(page)
    .getByLabel('Send from account')
    .selectOption({ label: `@${names.account} · Twitter` })
  await dialog(page).getByLabel('Campaign name').fill(names.campaign)
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page)
    .getByRole('button', { name: new RegExp(source) })
    .click()
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await dialog(page).getByLabel('Initial message 1').fill('Hi {name}, may I ask what you are building?')
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await scheduleAlwaysOpen(page)
  await dialog(page)
    .getByLabel(/Start sending right away/)
    .check()
  await dialog(page).getByRole('button', { name: 'Create & Start' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(
    page.getByTestId('campaign-card').filter({ hasText: names.campaign }).getByText('Active'),
  ).toBeVisible()
  const [campaign] = await sql<{ id: string }>(
    'select id::text from public.campaigns where name = $1 and workspace_id = $2',
    [names.campaign, workspace.id],
  )
  if (!campaign) throw new Error(`no campaign ${names.campaign}`)

  // The DM goes out; the lead answers it on X; the account's inbox sync brings the conversation in.
  await eventually(async () => expect(await deliveriesOf(names.account)).toHaveLength(1), accountId)
  await xSandbox('messages', {
    method: 'POST',
    body: {
      account: names.account,
      from: lead.username,
      text: `Hi! Tell me more, this is ${lead.username}.`,
    },
  })
  let threadId = ''
  await eventually(async () => {
    const [thread] = await sql<{ id: string }>(
      'select id::text from public.inbox_threads where account_id = $1 and peer_username = $2',
      [accountId, lead.username],
    )
    expect(thread).toBeDefined()
    threadId = thread?.id ?? ''
  }, accountId)
  return {
    ...names,
    workspaceId: workspace.id,
    accountId,
    lead,
    campaignId: campaign.id,
    threadId,
  }
}

test.describe('an agency runs two clients', () => {
  test.setTimeout(900_000)
  runnerForTheseTests()

  test('two client workspaces, an agent in one who answers a reply there, sees nothing of the other, and is refused once removed', async ({
    page,
    browser,
  }) => {
    const run = `${testInt('agency', 1_000_000)}r${test.info().retry}`
    console.log(`[agency] names drawn for run ${run}`)
    const offset = 7_000 + testInt('agency people', 2000)
    const { profiles } = await xSandbox<{ profiles: Profile[] }>(
      `profiles?canDm=true&verifiedOnlyRequests=false&protected=false&limit=2&offset=${offset}`,
    )
    const [southLead, northLead] = profiles
    if (!southLead || !northLead) throw new Error('no sandbox profiles to message')

    const ownerEmail = uniqueEmail('agency-owner')
    const ownerId = await signUpThroughApi(page, ownerEmail, 'owner-password-1')
    await completeOnboarding(ownerEmail)
    await page.goto('/dashboard')

    // The other client first, so the agent's client is the active one when the owner invites.
    const north = await setUpClient(
      page,
      ownerId,
      { workspace: `North ${run}`, account: `agn${run}`, campaign: `North launch ${run}` },
      northLead,
    )
    const south = await setUpClient(
      page,
      ownerId,
      { workspace: `South ${run}`, account: `ags${run}`, campaign: `South launch ${run}` },
      southLead,
    )

    // The agent is invited to South by e-mail and joins from the outbox link.
    await (await openSwitcher(page)).getByRole('menuitem', { name: 'Members' }).click()
    await expect(page).toHaveURL(/\/settings\/members$/)
    const agentEmail = uniqueEmail('agency-agent')
    await page.getByLabel('E-mail address').fill(agentEmail)
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Agent' })
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await expect(page.getByText(`Invitation sent to ${agentEmail}`)).toBeVisible()

    const agentContext = await browser.newContext({ baseURL: test.info().project.use.baseURL })
    const agent = await agentContext.newPage()
    await agent.goto(await outboxLink(agentEmail, '/auth/v1/verify'))
    await expect(agent.getByRole('heading', { name: 'You joined the workspace' })).toBeVisible()
    await agent.getByLabel('Choose a password').fill('agent-password-1')
    await agent.getByRole('button', { name: 'Save password and continue' }).click()
    await expect(agent).toHaveURL(/\/dashboard/)
    await expect(agent.getByRole('button', { name: `Workspace: ${south.workspace}` })).toBeVisible()
    const sections = agent.getByRole('tablist', { name: 'Dashboard sections' })
    await expect(sections.getByRole('tab')).toHaveText([/Inbox/])

    // The agent answers South's lead; the answer reaches the X sandbox once.
    await agent.goto('/dashboard?tab=inbox')
    const thread = agent.getByTestId('inbox-thread').filter({ hasText: `@${south.lead.username}` })
    await expect(thread).toBeVisible()
    await thread.click()
    const conversation = agent.getByRole('region', { name: `Conversation with @${south.lead.username}` })
    const answer = `Happy to, ${south.lead.name}: a short call this week? (${run})`
    await conversation.getByLabel(`Your answer to @${south.lead.username}`).fill(answer)
    await conversation.getByLabel(`Your answer to @${south.lead.username}`).press('Control+Enter')
    const sent = conversation.getByTestId('inbox-message').filter({ hasText: answer })
    await expect(sent).toHaveCount(1)
    await eventually(
      async () =>
        expect((await deliveriesOf(south.account)).filter((d) => d.text === answer)).toHaveLength(1),
      south.accountId,
    )
    await expect(sent).toHaveAttribute('data-status', 'sent', { timeout: 120_000 })
    expect((await deliveriesOf(south.account)).filter((d) => d.text === answer)[0]?.recipientUsername).toBe(
      south.lead.username,
    )

    // Nothing of North on any screen the agent can open: its workspace, campaign, account, lead and
    // conversation are named nowhere (the pages are loaded, so an absent name means something).
    const northNames = [north.workspace, north.campaign, north.account, north.lead.username]
    const screens: [string, () => Promise<void>][] = [
      ['/dashboard?tab=inbox', () => expect(thread).toBeVisible()],
      [`/dashboard?tab=inbox&thread=${north.threadId}`, () => expect(thread).toBeVisible()],
      [
        '/dashboard?tab=campaigns',
        () => expect(agent.getByRole('heading', { name: NOT_ALLOWED })).toBeVisible(),
      ],
      [
        '/dashboard?tab=social-accounts',
        () => expect(agent.getByRole('heading', { name: NOT_ALLOWED })).toBeVisible(),
      ],
      ['/dashboard?tab=leads', () => expect(agent.getByRole('heading', { name: NOT_ALLOWED })).toBeVisible()],
      [
        '/activity',
        () =>
          expect(
            agent.getByRole('heading', { name: 'Only owners and admins see the activity' }),
          ).toBeVisible(),
      ],
    ]
    for (const [url, loaded] of screens) {
      await agent.goto(url)
      await loaded()
      const text = (await agent.locator('body').textContent()) ?? ''
      for (const name of northNames) expect(text, `${url} names ${name}`).not.toContain(name)
    }
    const menu = await openSwitcher(agent)
    // (their own personal workspace and South; never North)
    await expect(menu.getByRole('menuitemradio').filter({ hasText: south.workspace })).toHaveCount(1)
    await expect(menu.getByRole('menuitemradio')).toHaveCount(2)
    await expect(menu).not.toContainText(north.workspace)
    await agent.keyboard.press('Escape')

    // Nor through the data API with the agent's own token, even asking for North's rows by id.
    const reads = [
      'workspaces?select=id,name',
      'inbox_threads?select=id,peer_username,account_id,workspace_id',
      'inbox_messages?select=id,thread_id,body',
      'social_accounts?select=id,username,workspace_id',
      'campaigns?select=id,name',
      'campaign_leads?select=id,username',
      'scraping_campaign_leads?select=id,username',
      `inbox_threads?select=id&id=eq.${north.threadId}`,
      `inbox_threads?select=id&workspace_id=eq.${north.workspaceId}`,
      `social_accounts?select=id&id=eq.${north.accountId}`,
      `campaigns?select=id&id=eq.${north.campaignId}`,
      `workspaces?select=id&id=eq.${north.workspaceId}`,
    ]
    for (const path of reads) {
      const rows = JSON.stringify(await restAs(agent, path))
      for (const secret of [
        ...northNames,
        north.workspaceId,
        north.accountId,
        north.campaignId,
        north.threadId,
      ])
        expect(rows, `${path} shows ${secret}`).not.toContain(secret)
    }
    // (the same reads do show the agent South's conversation: the token works)
    expect(JSON.stringify(await restAs(agent, 'inbox_threads?select=id,peer_username'))).toContain(
      south.lead.username,
    )
    expect(await inviteFrom(agent, south.workspaceId)).toEqual({ status: 403, body: { error: NOT_ALLOWED } })

    // The owner removes the agent; the agent's very next request, same token, is refused.
    await page.reload()
    await page.getByRole('button', { name: `Remove ${agentEmail}` }).click()
    await page.getByRole('dialog', { name: 'Remove member' }).getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByText(`${agentEmail} was removed from ${south.workspace}`)).toBeVisible()
    expect(await inviteFrom(agent, south.workspaceId)).toEqual({ status: 403, body: { error: NOT_MEMBER } })
    expect(await restAs(agent, `inbox_threads?select=id&id=eq.${south.threadId}`)).toEqual([])
    await agent.goto('/dashboard?tab=inbox')
    await expect(agent.getByRole('heading', { name: 'No open conversations' })).toBeVisible()
    await expect(agent.getByTestId('inbox-thread')).toHaveCount(0)
    await expect(agent.getByRole('button', { name: `Workspace: ${south.workspace}` })).toHaveCount(0)
    await agentContext.close()
  })
})

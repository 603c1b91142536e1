import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { renderApp } from '@/testing/render-app'
import {
  campaignRequest,
  defaultCampaignForm,
  nameForSource,
  personalise,
  stepProblems,
} from '../../campaign-form'
import { CampaignWizard } from './campaign-wizard'

const api = vi.hoisted(() => ({
  accounts: vi.fn(),
  sources: vi.fn(),
  daysOff: vi.fn(),
  call: vi.fn(),
  allowance: vi.fn(),
}))
vi.mock('../../api/get-sender-accounts', async (original) => ({
  ...(await original<object>()),
  getSenderAccounts: api.accounts,
}))
vi.mock('../../api/get-lead-sources', () => ({ getLeadSources: api.sources }))
vi.mock('../../api/preview-days-off', () => ({ previewDaysOff: api.daysOff }))
vi.mock('../../api/get-account-allowance', () => ({ getAccountAllowance: api.allowance }))
const ai = vi.hoisted(() => ({
  status: vi.fn(),
  draft: vi.fn(),
}))
vi.mock('@/lib/ai', async (original) => ({
  ...(await original<typeof import('@/lib/ai')>()),
  useAiStatus: () => ({ data: ai.status() }),
  draftMessages: ai.draft,
}))
const AI_OFF = {
  available: false,
  reason: 'AI writing is not available: no AI provider is set up for this Reachflow server.',
}
const AI_ON = {
  available: true,
  reason: null,
  sandbox: true,
  budget: { requests: 1, requestLimit: 300, tokens: 100, tokenLimit: 150000, exhausted: false, resetsAt: '' },
}
vi.mock('@/lib/api-client', async (original) => ({
  ...(await original<typeof import('@/lib/api-client')>()),
  callApi: api.call,
}))

const ACCOUNT = {
  id: 'acc-1',
  username: 'dana_x',
  status: 'active',
  daily_message_limit: 50,
  platform: { name: 'twitter', display_name: 'Twitter' },
}
const SOURCE = {
  id: 'scr-1',
  name: 'SaaS founders on X',
  leads_collected: 100,
  account_id: 'acc-1',
  platform: { name: 'twitter', display_name: 'Twitter' },
}

beforeEach(() => {
  ai.status.mockReset().mockReturnValue(AI_OFF)
  ai.draft.mockReset()
  api.accounts.mockReset().mockResolvedValue([ACCOUNT])
  api.sources.mockReset().mockResolvedValue([SOURCE])
  api.daysOff.mockReset().mockResolvedValue(['2026-11-25', '2026-12-03'])
  api.allowance
    .mockReset()
    .mockResolvedValue({ username: 'dana_x', allowed: 450, setBy: 'platform', warmupDay: null })
  api.call.mockReset().mockResolvedValue({ id: 'c1', status: 'draft' })
})

type User = ReturnType<typeof userEvent.setup>
const next = () => screen.getByRole('button', { name: 'Next' })

async function setup(user: User) {
  await screen.findByText(/@dana_x/)
  await user.type(screen.getByLabelText('Campaign name'), 'Founders')
  await user.selectOptions(screen.getByLabelText('Send from account'), 'acc-1')
  await user.click(next())
}
async function chooseSource(user: User) {
  await user.click(await screen.findByRole('button', { name: /SaaS founders on X/ }))
  await user.click(next())
}
async function writeMessage(user: User) {
  await user.type(screen.getByLabelText('Initial message 1'), 'Hey {{name}, how is @{{username} going?')
  await user.click(next())
}

describe('Create New Campaign wizard (product.md §2 Modals 3, §5, §9)', () => {
  it('step 1 needs a name and an account', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    expect(screen.getByText('Step 1 of 5')).toBeInTheDocument()
    await screen.findByText(/@dana_x/)
    expect(next()).toBeDisabled()
    expect(screen.queryByText('Campaign name is required')).toBeNull()
    await user.type(screen.getByLabelText('Campaign name'), 'x')
    await user.clear(screen.getByLabelText('Campaign name'))
    // Validated on blur: nothing while typing, the reason once the field is left.
    expect(screen.queryByText('Campaign name is required')).toBeNull()
    await user.tab()
    expect(screen.getByText('Campaign name is required')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Campaign name'), 'Founders')
    expect(next()).toBeDisabled()
    await user.selectOptions(screen.getByLabelText('Send from account'), 'acc-1')
    expect(next()).toBeEnabled()
  })

  it("says 'No active accounts found…' without an active account", async () => {
    api.accounts.mockResolvedValue([])
    renderApp(<CampaignWizard onClose={() => {}} />)
    expect(
      await screen.findByText(
        'No active accounts found. Please add and verify a social media account first.',
      ),
    ).toBeInTheDocument()
  })

  it('step 2 needs a lead source; with none: No completed scraping campaigns', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    expect(next()).toBeDisabled()
    await user.click(await screen.findByRole('button', { name: /SaaS founders on X/ }))
    expect(screen.getByRole('button', { name: /SaaS founders on X/ })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByText(/100 valid leads/)).toBeInTheDocument()
    expect(next()).toBeEnabled()
  })

  it('offers only what the source query returns, and an empty state when there is none', async () => {
    api.sources.mockResolvedValue([])
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    expect(await screen.findByText('No completed scraping campaigns')).toBeInTheDocument()
    expect(next()).toBeDisabled()
  })

  it("choosing a source fills an empty name with the source name plus ' DM Campaign'", async () => {
    expect(nameForSource('', 'SaaS founders on X')).toBe('SaaS founders on X DM Campaign')
    expect(nameForSource('Mine', 'SaaS founders on X')).toBe('Mine')
    renderApp(<CampaignWizard onClose={() => {}} initialSourceId="scr-1" />)
    await waitFor(() =>
      expect(screen.getByLabelText('Campaign name')).toHaveValue('SaaS founders on X DM Campaign'),
    )
  })

  it('step 3: three blank slots, at least one non-blank message, one slot always kept', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    expect(screen.getAllByLabelText(/^Initial message \d$/)).toHaveLength(3)
    expect(next()).toBeDisabled()
    await user.type(screen.getByLabelText('Initial message 2'), '   ')
    expect(screen.getByText('Write at least one initial message')).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Remove message 3' }))
    await user.click(screen.getByRole('button', { name: 'Remove message 2' }))
    expect(screen.getAllByLabelText(/^Initial message \d$/)).toHaveLength(1)
    expect(screen.getByRole('button', { name: 'Remove message 1' })).toBeDisabled()
    await user.type(screen.getByLabelText('Initial message 1'), 'Hi')
    expect(next()).toBeEnabled()
  })

  it('previews {username} and {name} live', async () => {
    expect(personalise('Hi {name} (@{username})', { username: 'ana', name: 'Ana' })).toBe('Hi Ana (@ana)')
    expect(personalise('Hi {name}', { username: 'ana', name: null })).toBe('Hi ana')
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    expect(screen.getByText('Write a message to see how it reads.')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Initial message 1'), 'Hey {{name}, how is @{{username} going?')
    expect(screen.getByText('Hey Jordan, how is @jordan_builds going?')).toBeInTheDocument()
  })

  it('says how spintax works, spins it in the preview like the runner, and spins again on request', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    expect(screen.getByText('{Hi|Hello|Hey}')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Spin again' })).toBeNull()
    // userEvent reads { as a key: {{ types one brace
    await user.type(screen.getByLabelText('Initial message 1'), '{{Hi|Hello|Hey} {{name}!')
    const bubble = () => screen.getByText(/^(Hi|Hello|Hey) Jordan!$/)
    const seen = new Set([bubble().textContent])
    for (let i = 0; i < 12 && seen.size < 3; i++) {
      await user.click(screen.getByRole('button', { name: 'Spin again' }))
      seen.add(bubble().textContent)
    }
    expect([...seen].sort()).toEqual(['Hello Jordan!', 'Hey Jordan!', 'Hi Jordan!'])
  })

  it('follow-up days 1-30 (default 3) and a follow-up text when follow-ups are on', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    await user.type(screen.getByLabelText('Initial message 1'), 'Hi')
    await user.click(screen.getByLabelText(/Send follow-ups/))
    const days = screen.getByLabelText('Days between messages')
    expect(days).toHaveValue(3)
    expect(screen.getByText('Write the follow-up message or turn follow-ups off')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Follow-up 1'), 'Any thoughts?')
    expect(next()).toBeEnabled()
    for (const bad of ['0', '31', '2.5']) {
      await user.clear(days)
      await user.type(days, bad)
      expect(screen.getByText('Follow-up days must be a whole number from 1 to 30')).toBeInTheDocument()
      expect(next()).toBeDisabled()
    }
    await user.clear(days)
    await user.type(days, '30')
    expect(next()).toBeEnabled()
  })

  it("step 4: a limit above what the account may send today says the account's allowance", async () => {
    // as account_daily_usage() reads an account on its third day of warm-up
    api.allowance.mockResolvedValue({ username: 'dana_x', allowed: 10, setBy: 'warmup', warmupDay: 3 })
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    await writeMessage(user)
    expect(await screen.findByTestId('account-allowance')).toHaveTextContent(
      '@dana_x may send 10 a day on warm-up day 3, inbox answers included: this campaign sends no more than that for now.',
    )
    expect(api.allowance).toHaveBeenCalledWith('acc-1')
    const limit = screen.getByLabelText('Daily message limit')
    await user.clear(limit)
    await user.type(limit, '10')
    expect(screen.queryByTestId('account-allowance')).not.toBeInTheDocument()
  })

  it('step 4: daily limit 1-500 (default 50), 09:00-17:00 Mon-Fri UTC, the next random days off', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    await writeMessage(user)
    const limit = screen.getByLabelText('Daily message limit')
    expect(limit).toHaveValue(50)
    expect(screen.getByLabelText('Time zone')).toHaveValue('UTC')
    expect(screen.getByLabelText('Send from')).toHaveValue('09:00')
    expect(screen.getByLabelText('Until')).toHaveValue('17:00')
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
      expect(screen.getByRole('button', { name: day })).toHaveAttribute('aria-pressed', 'true')
    for (const day of ['Sat', 'Sun'])
      expect(screen.getByRole('button', { name: day })).toHaveAttribute('aria-pressed', 'false')
    expect(await screen.findByTestId('days-off-preview')).toHaveTextContent(/Next days off: .*25.*, .*3/)
    expect(api.daysOff).toHaveBeenCalledWith(
      expect.any(String),
      {
        timezone: 'UTC',
        timeFrom: '09:00',
        timeTo: '17:00',
        activeDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
        randomDaysOff: true,
      },
      28,
    )
    for (const bad of ['0', '501']) {
      await user.clear(limit)
      await user.type(limit, bad)
      expect(screen.getByText('Daily message limit must be a whole number from 1 to 500')).toBeInTheDocument()
      expect(next()).toBeDisabled()
    }
    await user.clear(limit)
    await user.type(limit, '500')
    expect(next()).toBeEnabled()
  })

  it('the window must end after it starts, and at least one day must be active', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    await writeMessage(user)
    await user.clear(screen.getByLabelText('Until'))
    await user.type(screen.getByLabelText('Until'), '08:00')
    expect(screen.getByText("The schedule's end time must be later than its start time")).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.clear(screen.getByLabelText('Until'))
    await user.type(screen.getByLabelText('Until'), '18:00')
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
      await user.click(screen.getByRole('button', { name: day }))
    expect(screen.getByText('Choose at least one active day')).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Sat' }))
    expect(next()).toBeEnabled()
  })

  it("review says 'created in draft mode' or 'Campaign will start immediately' and posts the documented body", async () => {
    const user = userEvent.setup()
    const onClose = vi.fn()
    renderApp(<CampaignWizard onClose={onClose} />)
    await setup(user)
    await chooseSource(user)
    await writeMessage(user)
    await user.click(next())
    expect(screen.getByText('Step 5 of 5')).toBeInTheDocument()
    expect(screen.getByTestId('dm-review-mode')).toHaveTextContent('created in draft mode')
    await user.click(screen.getByLabelText(/Start sending right away/))
    expect(screen.getByTestId('dm-review-mode')).toHaveTextContent('Campaign will start immediately')
    await user.click(screen.getByRole('button', { name: 'Create & Start' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [route, request] = api.call.mock.calls[0] as [string, { body: Record<string, unknown> }]
    expect(route).toBe('POST /v2/campaigns')
    expect(request.body).toMatchObject({
      name: 'Founders',
      account_id: 'acc-1',
      platform: 'twitter',
      scraping_campaign_id: 'scr-1',
      run_immediately: true,
      target_count: 50,
      daily_message_limit: 50,
      sequences: {
        messages: ['Hey {name}, how is @{username} going?'],
        followUpEnabled: false,
        followUpMessages: [],
        followUpDays: 3,
      },
      schedule: { timezone: 'UTC', timeFrom: '09:00', timeTo: '17:00' },
    })
  })

  it("shows 'Failed to create campaign: {error}' and the network text", async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    await writeMessage(user)
    await user.click(next())
    api.call.mockRejectedValueOnce(new ApiError('x', 'No leads in this source', 422))
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to create campaign: No leads in this source',
    )
    api.call.mockRejectedValueOnce(new ApiError('offline', null, null))
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Failed to create campaign. Please try again.'),
    )
  })

  it('without an AI provider: one line says why, and no AI controls', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    expect(screen.getByTestId('ai-note')).toHaveTextContent(AI_OFF.reason)
    expect(screen.queryByRole('button', { name: 'Write with AI' })).toBeNull()
    expect(screen.queryByLabelText(/Personalise each message with AI/)).toBeNull()
  })

  it('Write with AI drafts openings and follow-ups into the editable fields; personalisation is sent when ticked', async () => {
    ai.status.mockReturnValue(AI_ON)
    ai.draft.mockResolvedValue({
      messages: ['Hi {name}, drafted one', 'Hey {name}, drafted two'],
      followUps: ['Bumping this, {name}'],
    })
    const user = userEvent.setup()
    const onClose = vi.fn()
    renderApp(<CampaignWizard onClose={onClose} />)
    await setup(user)
    await chooseSource(user)
    await user.click(screen.getByRole('button', { name: 'Write with AI' }))
    const dialog = screen.getByRole('dialog', { name: 'Write with AI' })
    await user.click(within(dialog).getByRole('button', { name: 'Write drafts' }))
    expect(within(dialog).getByText('Describe the goal in a few words')).toBeInTheDocument()
    expect(ai.draft).not.toHaveBeenCalled()
    await user.type(within(dialog).getByLabelText('Campaign goal'), 'Book intro calls')
    await user.type(within(dialog).getByLabelText('Your offer'), 'SEO audits')
    await user.selectOptions(within(dialog).getByLabelText('Follow-ups'), '1')
    await user.click(within(dialog).getByRole('button', { name: 'Write drafts' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Write with AI' })).toBeNull())
    expect(ai.draft).toHaveBeenCalledWith({
      goal: 'Book intro calls',
      offer: 'SEO audits',
      platform: 'twitter',
      variants: 3,
      followUps: 1,
    })
    expect(screen.getByLabelText('Initial message 1')).toHaveValue('Hi {name}, drafted one')
    expect(screen.getByLabelText('Initial message 2')).toHaveValue('Hey {name}, drafted two')
    expect(screen.getByLabelText('Follow-up 1')).toHaveValue('Bumping this, {name}')
    expect(screen.getByRole('status')).toHaveTextContent('AI drafts added below')
    await user.clear(screen.getByLabelText('Initial message 2'))
    await user.type(screen.getByLabelText('Initial message 2'), 'My own words')
    await user.click(screen.getByLabelText(/Personalise each message with AI/))
    await user.click(next())
    await user.click(next())
    expect(screen.getByText('On (falls back to your message)')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [, request] = api.call.mock.calls[0] as [string, { body: Record<string, unknown> }]
    expect(request.body).toMatchObject({
      ai_personalization: true,
      sequences: {
        messages: ['Hi {name}, drafted one', 'My own words'],
        followUpEnabled: true,
        followUpMessages: ['Bumping this, {name}'],
      },
    })
  })

  it('a used-up AI budget disables drafting and says personalised messages go out as written', async () => {
    ai.status.mockReturnValue({
      ...AI_ON,
      reason: "Today's AI budget is used up (it resets at 00:00 UTC).",
      budget: { ...AI_ON.budget, requests: 300, exhausted: true },
    })
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    expect(screen.getByRole('button', { name: 'Write with AI' })).toBeDisabled()
    await user.click(screen.getByLabelText(/Personalise each message with AI/))
    expect(
      screen.getByText(
        "Today's AI budget is used up (it resets at 00:00 UTC). Until then messages go out as written.",
      ),
    ).toBeInTheDocument()
  })

  it('a failed draft leaves the messages as they were and says why', async () => {
    ai.status.mockReturnValue(AI_ON)
    ai.draft.mockRejectedValue(new ApiError('x', 'The AI service did not answer in time.', 504))
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    await user.type(screen.getByLabelText('Initial message 1'), 'Mine')
    await user.click(screen.getByRole('button', { name: 'Write with AI' }))
    const dialog = screen.getByRole('dialog', { name: 'Write with AI' })
    await user.type(within(dialog).getByLabelText('Campaign goal'), 'Book intro calls')
    await user.type(within(dialog).getByLabelText('Your offer'), 'SEO audits')
    await user.click(within(dialog).getByRole('button', { name: 'Write drafts' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not write drafts: The AI service did not answer in time. Your messages are unchanged.',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.getByLabelText('Initial message 1')).toHaveValue('Mine')
  })

  it('offers "use the winner after N sends" once two messages are written, and sends it', async () => {
    const user = userEvent.setup()
    renderApp(<CampaignWizard onClose={() => {}} />)
    await setup(user)
    await chooseSource(user)
    const rule = screen.getByLabelText(/Use the winner after N sends per variant/)
    expect(rule).toBeDisabled()
    expect(screen.getByText('Write at least two messages to compare them.')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Initial message 1'), 'Hi A')
    await user.type(screen.getByLabelText('Initial message 2'), 'Hi B')
    await user.click(rule)
    const sends = screen.getByLabelText('Sends per variant before choosing')
    expect(sends).toHaveValue(100)
    await user.clear(sends)
    await user.type(sends, '20')
    expect(screen.getByText('Use the winner after 30 to 10,000 sends per variant')).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.clear(sends)
    await user.type(sends, '150')
    await user.click(next())
    await user.click(next())
    expect(screen.getByText('Only the winner after 150 sends per variant')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    await waitFor(() => expect(api.call).toHaveBeenCalled())
    const [, request] = api.call.mock.calls[0] as [string, { body: Record<string, unknown> }]
    expect(request.body).toMatchObject({ winner_after_sends: 150, sequences: { messages: ['Hi A', 'Hi B'] } })
  })

  it('the winner rule is off without two messages to compare', () => {
    const ready = {
      ...defaultCampaignForm(),
      name: 'A',
      accountId: 'a',
      scrapingCampaignId: 's',
      messages: [{ text: 'Hi' }, { text: ' ' }],
      useWinner: true,
      winnerAfterSends: 5,
    }
    expect(stepProblems(ready, 2)).toEqual({})
    expect(campaignRequest(ready, 'id-1', 'twitter').winner_after_sends).toBeNull()
  })

  it('the form rules hold per step', () => {
    const form = defaultCampaignForm()
    expect(stepProblems(form, 0)).toEqual({
      name: 'Campaign name is required',
      accountId: 'Choose the account to send from',
    })
    const ready = { ...form, name: 'A', accountId: 'a', scrapingCampaignId: 's', messages: [{ text: 'Hi' }] }
    for (const step of [0, 1, 2, 3, 4]) expect(stepProblems(ready, step)).toEqual({})
    expect(campaignRequest(ready, 'id-1', 'twitter').target_count).toBe(50)
  })

  it("the form's rules and words are the api's (@reachflow/schemas), beyond what the inputs stop", () => {
    const ready = { ...defaultCampaignForm(), name: 'A', accountId: 'a', scrapingCampaignId: 's' }
    const long = 'x'.repeat(10_001)
    expect(stepProblems({ ...ready, name: 'x'.repeat(201) }, 0)).toEqual({
      name: 'Campaign names may be at most 200 characters',
    })
    expect(stepProblems({ ...ready, messages: [{ text: long }] }, 2)).toEqual({
      messages: 'A message may be at most 10,000 characters',
    })
    expect(stepProblems({ ...ready, messages: [{ text: 'Hi' }], timezone: 'Mars/Olympus' }, 3)).toEqual({
      timezone: 'Unknown time zone "Mars/Olympus"',
    })
    expect(stepProblems({ ...ready, messages: [{ text: 'Hi' }], timeTo: '24:00' }, 3)).toEqual({
      timeTo: 'Schedule times must be HH:MM (00:00-23:59)',
    })
  })
})

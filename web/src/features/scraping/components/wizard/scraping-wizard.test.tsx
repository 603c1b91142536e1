import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { renderApp } from '@/testing/render-app'
import {
  cleanSourceValue,
  defaultScrapingForm,
  scrapingRequest,
  scrapingStepProblems,
  targetCountOf,
} from '../../scraping-form'
import { NO_ACTIVE_ACCOUNTS, ScrapingWizard } from './scraping-wizard'

const api = vi.hoisted(() => ({ accounts: vi.fn(), create: vi.fn() }))
vi.mock('../../api/get-scraping-accounts', () => ({ getScrapingAccounts: api.accounts }))
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
vi.mock('@/lib/api-client', async (original) => {
  const real = await original<typeof import('@/lib/api-client')>()
  return { ...real, callApi: api.create }
})

const ACCOUNT = { id: 'acc-1', username: 'dana_x', platform: { name: 'twitter', display_name: 'Twitter' } }

beforeEach(() => {
  ai.status.mockReset().mockReturnValue(AI_OFF)
  ai.draft.mockReset()
  api.accounts.mockReset().mockResolvedValue([ACCOUNT])
  api.create.mockReset().mockResolvedValue({ id: 'new-id' })
})

const next = () => screen.getByRole('button', { name: 'Next' })

async function fillSetup(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Campaign name'), 'Indie hackers')
  await user.selectOptions(await screen.findByLabelText('Account'), 'acc-1')
}

describe('Create Scraping Campaign wizard (product.md §2 Modals 1, §5)', () => {
  it('step 1 needs a name and an account', async () => {
    const user = userEvent.setup()
    renderApp(<ScrapingWizard onClose={() => {}} />)
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument()
    await screen.findByText(/@dana_x/)
    expect(next()).toBeDisabled()
    await user.type(screen.getByLabelText('Campaign name'), 'Indie hackers')
    expect(next()).toBeDisabled()
    expect(screen.queryByText('Campaign name is required')).toBeNull()
    await user.clear(screen.getByLabelText('Campaign name'))
    // Validated on blur: nothing while typing, the reason once the field is left.
    expect(screen.queryByText('Campaign name is required')).toBeNull()
    await user.tab()
    expect(screen.getByText('Campaign name is required')).toBeInTheDocument()
    await fillSetup(user)
    expect(next()).toBeEnabled()
  })

  it("says 'No active accounts found…' when there is no active account", async () => {
    api.accounts.mockResolvedValue([])
    renderApp(<ScrapingWizard onClose={() => {}} />)
    expect(await screen.findByText(NO_ACTIVE_ACCOUNTS)).toBeInTheDocument()
    expect(NO_ACTIVE_ACCOUNTS).toBe(
      'No active accounts found. Please add and verify a social media account first.',
    )
    expect(screen.getByLabelText('Account')).toBeDisabled()
  })

  it('step 2 needs a source value; the method defaults to followers and the target to 100', async () => {
    const user = userEvent.setup()
    renderApp(<ScrapingWizard onClose={() => {}} />)
    await fillSetup(user)
    await user.click(next())
    expect(screen.getByRole('button', { name: 'Followers' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByLabelText('Target count')).toHaveValue(100)
    expect(next()).toBeDisabled()
    await user.type(screen.getByLabelText('Username'), '@')
    expect(next()).toBeDisabled()
    await user.tab()
    expect(screen.getByText('Enter the source value (a username, hashtag or keyword)')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Hashtag posts' }))
    await user.clear(screen.getByLabelText('Hashtag'))
    await user.type(screen.getByLabelText('Hashtag'), '#buildinpublic')
    expect(next()).toBeEnabled()
  })

  it('target count 1-10,000, anything else falls back to 100', async () => {
    expect(targetCountOf('1')).toBe(1)
    expect(targetCountOf('10000')).toBe(10_000)
    expect(targetCountOf('10001')).toBe(100)
    expect(targetCountOf('0')).toBe(100)
    expect(targetCountOf('abc')).toBe(100)
    expect(targetCountOf('2.5')).toBe(100)
    const user = userEvent.setup()
    renderApp(<ScrapingWizard onClose={() => {}} />)
    await fillSetup(user)
    await user.click(next())
    await user.clear(screen.getByLabelText('Target count'))
    await user.type(screen.getByLabelText('Target count'), '20000')
    expect(screen.getByText(/Anything else means 100\./)).toBeInTheDocument()
  })

  it('strips # from hashtags and @ from usernames', () => {
    expect(cleanSourceValue('hashtag', ' #buildinpublic ')).toBe('buildinpublic')
    expect(cleanSourceValue('followers', '@levelsio')).toBe('levelsio')
    expect(cleanSourceValue('following', '@@levelsio')).toBe('levelsio')
    expect(cleanSourceValue('keyword', '#saas @founder')).toBe('#saas @founder')
  })

  it('step 3 is optional: min followers 0 by default, blank max means no limit; a bad range is named', async () => {
    const user = userEvent.setup()
    renderApp(<ScrapingWizard onClose={() => {}} />)
    await fillSetup(user)
    await user.click(next())
    await user.type(screen.getByLabelText('Username'), 'levelsio')
    await user.click(next())
    expect(screen.getByLabelText('Min followers')).toHaveValue(0)
    expect(screen.getByLabelText('Max followers')).toHaveValue(null)
    expect(next()).toBeEnabled()
    await user.clear(screen.getByLabelText('Min followers'))
    await user.type(screen.getByLabelText('Min followers'), '500')
    await user.type(screen.getByLabelText('Max followers'), '100')
    await user.tab()
    expect(
      screen.getByText('Max followers must be empty (no limit) or at least min followers'),
    ).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.clear(screen.getByLabelText('Max followers'))
    expect(next()).toBeEnabled()
  })

  it('reviews, says it is created pending, posts the documented body, and closes', async () => {
    const user = userEvent.setup()
    const onClose = vi.fn()
    renderApp(<ScrapingWizard onClose={onClose} />)
    await fillSetup(user)
    await user.click(next())
    await user.click(screen.getByRole('button', { name: 'Hashtag posts' }))
    await user.type(screen.getByLabelText('Hashtag'), '#buildinpublic')
    await user.clear(screen.getByLabelText('Target count'))
    await user.type(screen.getByLabelText('Target count'), '250')
    await user.click(next())
    await user.click(screen.getByLabelText('Must have a bio'))
    await user.click(next())
    expect(screen.getByText('Step 4 of 4')).toBeInTheDocument()
    expect(screen.getByText(/created in pending status/)).toBeInTheDocument()
    expect(screen.getByText(/Start it manually from the Lead Scraping list/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(api.create).toHaveBeenCalledWith('POST /lead-scraping/campaigns', {
      body: {
        name: 'Indie hackers',
        account_id: 'acc-1',
        sources: { type: 'hashtag', value: 'buildinpublic' },
        target_count: 250,
        filters: {
          min_followers: 0,
          max_followers: null,
          verified_only: false,
          has_bio: true,
          exclude_business: false,
        },
      },
    })
  })

  it("shows 'Failed to create campaign: {server error}' and 'Failed to create campaign. Please try again.'", async () => {
    const user = userEvent.setup()
    api.create.mockRejectedValueOnce(new ApiError('x', 'Account is not active', 422))
    renderApp(<ScrapingWizard onClose={() => {}} />)
    await fillSetup(user)
    await user.click(next())
    await user.type(screen.getByLabelText('Username'), 'levelsio')
    await user.click(next())
    await user.click(next())
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to create campaign: Account is not active',
    )
    api.create.mockRejectedValueOnce(new ApiError('offline', null, null))
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Failed to create campaign. Please try again.'),
    )
    api.create.mockRejectedValueOnce(new ApiError('x', null, 500))
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Failed to create campaign: Unknown error'),
    )
  })

  it('AI lead filtering: hidden with one line without a provider; with one, the ideal customer and minimum are sent', async () => {
    const user = userEvent.setup()
    const { unmount } = renderApp(<ScrapingWizard onClose={() => {}} />)
    await fillSetup(user)
    await user.click(next())
    await user.type(screen.getByLabelText('Username'), 'ana')
    await user.click(next())
    expect(screen.getByTestId('ai-note')).toHaveTextContent(AI_OFF.reason)
    expect(screen.queryByLabelText('Ideal customer')).toBeNull()
    unmount()

    ai.status.mockReturnValue(AI_ON)
    const onClose = vi.fn()
    renderApp(<ScrapingWizard onClose={onClose} />)
    await fillSetup(user)
    await user.click(next())
    await user.type(screen.getByLabelText('Username'), 'ana')
    await user.click(next())
    expect(screen.queryByLabelText('Minimum AI score')).toBeNull()
    await user.type(screen.getByLabelText('Ideal customer'), 'SaaS founders building in public')
    await user.clear(screen.getByLabelText('Minimum AI score'))
    await user.type(screen.getByLabelText('Minimum AI score'), '101')
    await user.tab()
    expect(screen.getByText('The minimum AI score must be a whole number from 0 to 100')).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.clear(screen.getByLabelText('Minimum AI score'))
    await user.type(screen.getByLabelText('Minimum AI score'), '70')
    await user.click(next())
    expect(screen.getByText('Score ≥ 70 for “SaaS founders building in public”')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Create Campaign' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(api.create).toHaveBeenCalledWith(
      'POST /lead-scraping/campaigns',
      expect.objectContaining({
        body: expect.objectContaining({
          ai_ideal_customer: 'SaaS founders building in public',
          ai_min_score: 70,
        }),
      }),
    )
  })

  it('moves back freely and keeps what was entered', async () => {
    const user = userEvent.setup()
    renderApp(<ScrapingWizard onClose={() => {}} />)
    await fillSetup(user)
    await user.click(next())
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(screen.getByLabelText('Campaign name')).toHaveValue('Indie hackers')
    expect(within(screen.getByRole('dialog')).getByText('Step 1 of 4')).toBeInTheDocument()
  })

  it('builds the request with a trimmed name and cleaned value', () => {
    const body = scrapingRequest({
      name: '  X  ',
      accountId: 'a',
      sourceType: 'followers',
      sourceValue: '@ana',
      targetCount: 'x',
      minFollowers: '10',
      maxFollowers: '2000',
      verifiedOnly: true,
      hasBio: false,
      excludeBusiness: true,
      aiIdealCustomer: '',
      aiMinScore: '60',
    })
    expect(body).not.toHaveProperty('ai_ideal_customer')
    expect(body).toMatchObject({ name: 'X', sources: { type: 'followers', value: 'ana' }, target_count: 100 })
    expect(body.filters).toEqual({
      min_followers: 10,
      max_followers: 2000,
      verified_only: true,
      has_bio: false,
      exclude_business: true,
    })
  })

  it('adds the AI filter only when an ideal customer is described, with a 0-100 minimum', () => {
    const form = { ...defaultScrapingForm(), name: 'X', accountId: 'a', sourceValue: 'ana' }
    const described = { ...form, aiIdealCustomer: '  SaaS founders  ', aiMinScore: '75' }
    expect(scrapingRequest(described)).toMatchObject({ ai_ideal_customer: 'SaaS founders', ai_min_score: 75 })
    expect(scrapingStepProblems({ ...described, aiMinScore: '101' }, 2)).toEqual({
      aiMinScore: 'The minimum AI score must be a whole number from 0 to 100',
    })
    expect(scrapingStepProblems({ ...form, aiMinScore: 'x' }, 2)).toEqual({})
  })
})

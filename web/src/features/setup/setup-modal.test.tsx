import type { User } from '@supabase/supabase-js'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { SetupModal } from './components/setup-modal'

// Only the transport is replaced: the modal's real request builders, checks and texts run.
const transport = vi.hoisted(() => ({ invoke: vi.fn(), rpc: vi.fn(), accountRow: vi.fn() }))
vi.mock('@/lib/supabase', () => ({
  supabase: {
    functions: { invoke: transport.invoke },
    rpc: transport.rpc,
    // the account's row as the runner's test left it, read by the check's polling
    from: () => ({ select: () => ({ eq: () => ({ maybeSingle: transport.accountRow }) }) }),
  },
}))

const PLATFORMS = [
  { id: 1, name: 'twitter', display_name: 'Twitter', is_active: true, coming_soon: false },
  { id: 2, name: 'instagram', display_name: 'Instagram', is_active: true, coming_soon: false },
]
const AUTH_TOKEN = 'e6e526c0814857148cc1f15afe37ff9c07b0bd1c'
const CT0 = '631de522eb283a50f47cc354ae8e296fdafb8be8659fd0495a273c6d2286c2e8'
const user = { id: 'u1' } as User

beforeEach(() => {
  transport.rpc.mockReset().mockResolvedValue({
    // As rpc/check_account_limit answers: error is null when another account may be added.
    data: { canAddAccount: true, currentCount: 0, limit: 1, planType: 'free', error: null },
    error: null,
  })
  transport.accountRow.mockReset().mockResolvedValue({
    data: { status: 'error', flag_reason: 'X chat locked (passcode): X Chat passcode required' },
    error: null,
  })
  transport.invoke.mockReset().mockImplementation(async (path: string) => {
    if (path === 'api/social-accounts/platforms') return { data: PLATFORMS, error: null }
    if (path === 'api/social-accounts') return { data: { id: 'a1', username: 'dana_x' }, error: null }
    throw new Error(`unexpected ${path}`)
  })
})

function renderModal() {
  renderApp(<SetupModal user={user} onClose={() => {}} onFinished={() => {}} />)
  return screen.getByRole('dialog', { name: 'Complete Your Setup' })
}

describe("'Complete Your Setup' modal", () => {
  it("shows the platforms' rules before the first account is connected", async () => {
    const modal = renderModal()
    expect(await screen.findByText('Ready to Add Account')).toBeInTheDocument()
    expect(modal).toHaveTextContent("Know the platforms' rules")
    expect(modal).toHaveTextContent(/X's rules forbid unsolicited bulk or automated direct messages/)
  })

  it('says why Connect is disabled, and takes the cookie header format', async () => {
    const u = userEvent.setup()
    renderModal()
    await screen.findByText('Ready to Add Account')
    const connect = screen.getByRole('button', { name: 'Connect Account' })
    expect(connect).toBeDisabled()
    expect(connect).toHaveAccessibleDescription('Choose a platform to connect')
    await u.click(screen.getByRole('button', { name: /Twitter/ }))
    expect(connect).toHaveAccessibleDescription('Please fill in all required account details')
    await u.type(screen.getByLabelText('Username'), 'dana_x')
    expect(connect).toHaveAccessibleDescription('Cookies are required for Twitter accounts')
    await u.click(screen.getByLabelText('Cookies (JSON)'))
    await u.paste(`auth_token=${AUTH_TOKEN}`)
    // the field says what is wrong with what was pasted
    expect(screen.getByLabelText('Cookies (JSON)')).toHaveAccessibleDescription(
      /^Invalid cookie format or validation failed: Cookies must include auth_token and ct0 \(ct0 missing/,
    )
    expect(connect).toBeDisabled()
    await u.paste(`; ct0=${CT0}`)
    expect(connect).toBeEnabled()
    expect(connect).not.toHaveAccessibleDescription()
  })
})

describe("the setup modal's focus and failure advice", () => {
  it('opens with focus on the step it asks for, not on "Don\'t show again"', async () => {
    renderModal()
    expect(screen.getByRole('heading', { name: 'Connect Your Social Account' })).toHaveFocus()
    await screen.findByText('Ready to Add Account')
    expect(screen.getByRole('button', { name: "Don't show again" })).not.toHaveFocus()
  })

  it('names the control it offers when the X Chat passcode is missing', async () => {
    const u = userEvent.setup()
    renderModal()
    await screen.findByText('Ready to Add Account')
    await u.click(screen.getByRole('button', { name: /Twitter/ }))
    await u.type(screen.getByLabelText('Username'), 'dana_x')
    await u.click(screen.getByLabelText('Cookies (JSON)'))
    await u.paste(`auth_token=${AUTH_TOKEN}; ct0=${CT0}`)
    await u.click(screen.getByRole('button', { name: 'Connect Account' }))
    const failure = await screen.findByText('@dana_x could not be connected')
    expect(failure.parentElement).toHaveTextContent(
      'Choose “Change details and retry”, enter your X Chat passcode, then connect again.',
    )
    expect(failure.parentElement).not.toHaveTextContent('Edit account')
    expect(screen.getByRole('button', { name: 'Change details and retry' })).toBeInTheDocument()
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { SocialAccount } from '../api/get-accounts'
import { EditAccountDialog } from './edit-account-dialog'

// Only the transport and the wait for the runner's test are replaced: the dialog's checks and
// request body are the real ones.
const transport = vi.hoisted(() => ({ invoke: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ supabase: { functions: { invoke: transport.invoke } } }))
vi.mock('@/lib/accounts/account-check', async (original) => ({
  ...(await original<typeof import('@/lib/accounts/account-check')>()),
  waitForAccountCheck: () => new Promise(() => {}),
}))

const AUTH_TOKEN = 'e6e526c0814857148cc1f15afe37ff9c07b0bd1c'
const CT0 = '631de522eb283a50f47cc354ae8e296fdafb8be8659fd0495a273c6d2286c2e8'
const account = {
  id: 'acc-1',
  username: 'dana_x',
  status: 'error',
  daily_message_limit: 50,
  requests_pending: 0,
  proxy_url: null,
  has_chat_passcode: true,
  last_synced_at: null,
  last_tested_at: null,
  flag_reason: 'X signed the session out',
  paused_until: null,
  warmup_phase: 5,
  trust_score: 0.5,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  connection: 'browser',
  platform: { name: 'twitter', display_name: 'Twitter' },
} satisfies SocialAccount

beforeEach(() => {
  transport.invoke.mockReset().mockResolvedValue({ data: { id: 'acc-1', status: 'testing' }, error: null })
})

describe('Edit account: new cookies', () => {
  it('says under the field what is wrong with pasted cookies, and sends the header format as pasted', async () => {
    const user = userEvent.setup()
    renderApp(<EditAccountDialog account={account} onClose={() => {}} onChanged={() => {}} />)
    const field = screen.getByLabelText(/New cookies \(JSON\)/)
    await user.click(field)
    await user.paste(`auth_token=${AUTH_TOKEN}`)
    expect(field).toHaveAccessibleDescription(
      /^Invalid cookie format or validation failed: Cookies must include auth_token and ct0 \(ct0 missing/,
    )
    await user.click(screen.getByRole('button', { name: 'Save and test' }))
    expect(transport.invoke).not.toHaveBeenCalled()
    await user.click(field)
    await user.keyboard('{End}')
    await user.paste(`; ct0=${CT0}`)
    expect(field).not.toHaveAttribute('aria-invalid', 'true')
    await user.click(screen.getByRole('button', { name: 'Save and test' }))
    await vi.waitFor(() => expect(transport.invoke).toHaveBeenCalled())
    expect(transport.invoke.mock.calls[0]?.[1]).toMatchObject({
      method: 'PATCH',
      body: { authData: { cookies: `auth_token=${AUTH_TOKEN}; ct0=${CT0}` } },
    })
  })
})

describe('Edit account: an official account', () => {
  it('sets only the daily limit, and closes once saved without waiting for a browser test', async () => {
    const user = userEvent.setup()
    const onClose = vi.fn()
    const official = {
      ...account,
      status: 'active',
      flag_reason: null,
      connection: 'official',
      platform: { name: 'instagram', display_name: 'Instagram' },
    } satisfies SocialAccount
    renderApp(<EditAccountDialog account={official} onClose={onClose} onChanged={() => {}} />)
    expect(screen.getByText(/connected through Instagram's API/)).toBeInTheDocument()
    expect(screen.queryByLabelText(/New Instagram password/)).not.toBeInTheDocument()
    expect(screen.queryByLabelText(/Proxy/)).not.toBeInTheDocument()
    const limit = screen.getByLabelText(/Messages per day/)
    await user.clear(limit)
    await user.type(limit, '30')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(transport.invoke.mock.calls[0]?.[1]).toMatchObject({
      method: 'PATCH',
      body: { dailyMessageLimit: 30 },
    })
  })
})

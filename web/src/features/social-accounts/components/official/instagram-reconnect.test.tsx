import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { SocialAccount } from '../../api/get-accounts'
import { AccountCard } from '../account-card'

// Only the transport is replaced: the request goes through supabase-js's functions client.
const transport = vi.hoisted(() => ({ invoke: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ supabase: { functions: { invoke: transport.invoke } } }))

const assign = vi.fn()
beforeEach(() => {
  transport.invoke.mockReset()
  assign.mockReset()
  vi.stubGlobal('location', { ...window.location, assign })
})

const REMOVED =
  "Reachflow's access to @lumen.studio was removed on Instagram (Settings › Apps and websites). Connect the account again from Accounts to keep its automations running."

function card(change: Partial<SocialAccount>) {
  const account = {
    id: 'a1',
    username: 'lumen.studio',
    status: 'error',
    daily_message_limit: 50,
    requests_pending: 0,
    proxy_url: null,
    has_chat_passcode: false,
    last_synced_at: null,
    last_tested_at: null,
    flag_reason: REMOVED,
    paused_until: null,
    warmup_phase: null,
    trust_score: 100,
    created_at: '2026-11-01T00:00:00Z',
    updated_at: '2026-11-01T00:00:00Z',
    connection: 'official',
    platform: { name: 'instagram', display_name: 'Instagram' },
    ...change,
  } as SocialAccount
  return renderApp(
    <AccountCard
      account={account}
      today={null}
      testing={false}
      deleting={false}
      onTest={() => {}}
      onEdit={() => {}}
      onDelete={() => {}}
    />,
  )
}

describe('an official Instagram account Instagram no longer accepts', () => {
  it('says why in the platform’s terms and connects again through Instagram', async () => {
    transport.invoke.mockResolvedValue({
      data: { url: 'https://www.instagram.com/oauth/authorize?state=s' },
      error: null,
    })
    card({})
    expect(screen.getByText(REMOVED)).toBeInTheDocument()
    expect(screen.queryByText(/Edit account/)).toBeNull()
    expect(screen.queryByRole('button', { name: /Test/ })).toBeNull()
    await userEvent.click(
      screen.getByRole('button', { name: 'Connect @lumen.studio again through Instagram' }),
    )
    expect(transport.invoke).toHaveBeenCalledWith('instagram-official/connect', {
      method: 'POST',
      body: { browserKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    })
    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://www.instagram.com/oauth/authorize?state=s'),
    )
  })

  it('offers no reconnect while the account works, nor for a browser account in error', () => {
    const { unmount } = card({ status: 'active', flag_reason: null })
    expect(screen.queryByRole('button', { name: /again through Instagram/ })).toBeNull()
    unmount()
    card({ connection: 'browser', flag_reason: 'Instagram asked for a security code.' })
    expect(screen.queryByRole('button', { name: /again through Instagram/ })).toBeNull()
    expect(screen.getByText(/Check the password and 2FA key in Edit account/)).toBeInTheDocument()
  })
})

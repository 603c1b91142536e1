import { ROLE_NOT_ALLOWED } from '@reachflow/domain'
import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { workAs } from '@/testing/workspace-role'
import type { SocialAccount } from '../api/get-accounts'
import { AccountsTab } from './accounts-tab'

// Only the reads are replaced (jsdom has no server); the tab, its cards and the role hook are real.
const reads = vi.hoisted(() => ({ accounts: vi.fn<() => Promise<unknown[]>>() }))
vi.mock('../api/get-accounts', () => ({ getAccounts: reads.accounts }))
vi.mock('../api/get-accounts-today', () => ({ getAccountsToday: async () => new Map() }))

const account: SocialAccount = {
  id: 'a1',
  username: 'client_brand',
  status: 'active',
  daily_message_limit: 50,
  requests_pending: 0,
  proxy_url: null,
  has_chat_passcode: true,
  last_synced_at: null,
  last_tested_at: null,
  flag_reason: null,
  paused_until: null,
  warmup_phase: 1,
  trust_score: 0.5,
  created_at: '2026-11-26T00:00:00Z',
  updated_at: '2026-11-26T00:00:00Z',
  connection: 'browser',
  platform: { name: 'twitter', display_name: 'Twitter' },
}

beforeEach(() => reads.accounts.mockReset())

describe('the Social Accounts tab by role', () => {
  it('shows a viewer the accounts without connect, test, edit or delete', async () => {
    workAs('viewer')
    reads.accounts.mockResolvedValue([account])
    renderApp(<AccountsTab onAdd={() => {}} />)
    const card = await screen.findByTestId('account-card')
    expect(card).toHaveTextContent('client_brand')
    expect(card).toHaveTextContent(/Messages\/Day\s*50/)
    expect(screen.queryByRole('button', { name: 'Add Account' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Test Connection/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Edit @client_brand' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete @client_brand' })).not.toBeInTheDocument()
  })

  it('tells a viewer with no accounts why there is no button to add one', async () => {
    workAs('viewer')
    reads.accounts.mockResolvedValue([])
    renderApp(<AccountsTab onAdd={() => {}} />)
    expect(await screen.findByText('No social accounts connected')).toBeInTheDocument()
    expect(screen.getByTestId('read-only-note')).toHaveTextContent(ROLE_NOT_ALLOWED)
    expect(screen.queryByRole('button', { name: 'Add Your First Account' })).not.toBeInTheDocument()
  })

  it('gives an editor every action', async () => {
    workAs('editor')
    reads.accounts.mockResolvedValue([account])
    renderApp(<AccountsTab onAdd={() => {}} />)
    await screen.findByTestId('account-card')
    expect(screen.getByRole('button', { name: 'Add Account' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: /Test Connection/ })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Edit @client_brand' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete @client_brand' })).toBeInTheDocument()
    expect(screen.queryByTestId('read-only-note')).not.toBeInTheDocument()
  })

  it('gives an editor with no accounts the button to add the first', async () => {
    workAs('editor')
    reads.accounts.mockResolvedValue([])
    renderApp(<AccountsTab onAdd={() => {}} />)
    expect(await screen.findByRole('button', { name: 'Add Your First Account' })).toBeInTheDocument()
    expect(screen.queryByTestId('read-only-note')).not.toBeInTheDocument()
  })
})

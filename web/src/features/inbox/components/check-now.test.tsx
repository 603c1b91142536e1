import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { InboxAccount } from '../api/types'
import { CheckNow } from './check-now'

// Only the transport is replaced: the overview comes through supabase-js's rpc.
const transport = vi.hoisted(() => ({ rpc: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ supabase: { rpc: transport.rpc } }))

const account = (fields: Partial<InboxAccount>): InboxAccount => ({
  id: 'a1',
  username: 'our_x',
  platform: 'twitter',
  status: 'active',
  connection: 'browser',
  last_synced_at: null,
  check_requested_at: null,
  ...fields,
})
const officialInstagram = account({
  id: 'a2',
  username: 'lumen.studio',
  platform: 'instagram',
  connection: 'official',
})
const overview = (accounts: InboxAccount[]) =>
  transport.rpc.mockResolvedValue({ data: { unread: 0, accounts }, error: null })

beforeEach(() => transport.rpc.mockReset())

describe('Check now beside official Instagram accounts', () => {
  it('says an official Instagram account’s messages arrive as they are sent, with nothing to check', async () => {
    overview([officialInstagram])
    renderApp(<CheckNow accountId="" />)
    expect(await screen.findByText('Instagram messages arrive here as they are sent.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Check now' })).toBeNull()
  })

  it('dates the last check by the accounts that are checked, leaving the official Instagram one out', async () => {
    overview([
      account({ last_synced_at: new Date(Date.now() - 5 * 60_000).toISOString() }),
      officialInstagram,
    ])
    renderApp(<CheckNow accountId="" />)
    expect(await screen.findByText(/^Last checked 5 minutes? ago$/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Check now' })).toBeEnabled()
  })
})

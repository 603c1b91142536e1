import { describe, expect, it, vi } from 'vitest'
import { getSenderAccounts } from './get-sender-accounts'

// Only the transport is replaced: the rows are what PostgREST answers for the select.
const rows = vi.hoisted(() => [
  {
    id: 'x-api',
    username: 'x_api',
    status: 'active',
    daily_message_limit: 50,
    connection: 'official',
    platform: { name: 'twitter', display_name: 'Twitter' },
  },
  {
    id: 'ig-api',
    username: 'ig_api',
    status: 'active',
    daily_message_limit: 50,
    connection: 'official',
    platform: { name: 'instagram', display_name: 'Instagram' },
  },
  {
    id: 'ig-web',
    username: 'ig_web',
    status: 'active',
    daily_message_limit: 50,
    connection: 'browser',
    platform: { name: 'instagram', display_name: 'Instagram' },
  },
])
vi.mock('@/lib/supabase', () => {
  const query = { select: () => query, eq: () => query, order: async () => ({ data: rows, error: null }) }
  return { supabase: { from: () => query } }
})

describe('the accounts a DM campaign can send from', () => {
  it('leaves out official Instagram accounts, whose API cannot start a conversation', async () => {
    const accounts = await getSenderAccounts()
    expect(accounts.map((a) => a.id)).toEqual(['x-api', 'ig-web'])
    // the review step prices an X API account's sends, so the connection stays on each account
    expect(accounts.map((a) => a.connection)).toEqual(['official', 'browser'])
  })
})

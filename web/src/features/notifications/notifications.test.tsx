import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { useWorkspaceStore } from '@/lib/workspace/workspace-store'
import { serviceClient, signedUpUser } from '@/testing/gateway'
import { workAs } from '@/testing/workspace-role'
import type { Notification } from './api/types'
import { notificationIconKind } from './components/notification-icon'
import { NotificationItem } from './components/notification-item'
import { NotificationsBell } from './components/notifications-bell'
import { NotificationsProvider, useNotifications } from './components/notifications-provider'
import { badgeLabel, withAllRead, withRead } from './notification-rules'

const item = (id: string, read = false): Notification => ({
  id,
  user_id: 'u1',
  type: 'generic',
  title: `Title ${id}`,
  message: '',
  read,
  read_at: read ? '2026-01-01T00:00:00Z' : null,
  created_at: '2026-01-01T00:00:00Z',
  metadata: {},
})

/** Reads the store without a provider around it. */
function UnreadCountProbe() {
  useNotifications((s) => s.unreadCount)
  return null
}

describe('notification rules (product.md §4)', () => {
  it("shows the count, '99+' above 99 and no badge at 0", () => {
    expect(badgeLabel(0)).toBeNull()
    expect(badgeLabel(-3)).toBeNull()
    expect(badgeLabel(1)).toBe('1')
    expect(badgeLabel(99)).toBe('99')
    expect(badgeLabel(100)).toBe('99+')
  })

  it('marking one read sets read_at and never takes the count below 0', () => {
    const data = { items: [item('a'), item('b', true)], unreadCount: 0 }
    const after = withRead(data, 'a', '2026-02-02T00:00:00Z')
    expect(after.unreadCount).toBe(0)
    expect(after.items[0]).toMatchObject({ read: true, read_at: '2026-02-02T00:00:00Z' })
    expect(withRead({ ...data, unreadCount: 2 }, 'a', 'x').unreadCount).toBe(1)
    // An item already read does not count again.
    expect(withRead({ ...data, unreadCount: 2 }, 'b', 'x').unreadCount).toBe(2)
  })

  it('mark all reads every item and sets the count to 0', () => {
    const after = withAllRead({ items: [item('a'), item('b', true)], unreadCount: 7 }, 'now')
    expect(after.unreadCount).toBe(0)
    expect(after.items.map((i) => [i.read, i.read_at])).toEqual([
      [true, 'now'],
      [true, '2026-01-01T00:00:00Z'],
    ])
  })

  it('gives the four known types their own icon and every other type the generic one', () => {
    for (const type of ['campaign_completed', 'campaign_failed', 'account_flagged', 'warmup_phase_completed'])
      expect(notificationIconKind(type)).toBe(type)
    expect(notificationIconKind('scraping_completed')).toBe('generic')
  })

  it('says when an account alert was resolved by the account recovering', () => {
    const alert = { ...item('a', true), type: 'account_flagged', title: 'Account needs attention' }
    const { rerender } = render(
      <ul>
        <NotificationItem notification={alert} onMarkRead={() => {}} />
      </ul>,
    )
    expect(screen.queryByText(/Resolved/)).toBeNull()
    rerender(
      <ul>
        <NotificationItem
          notification={{ ...alert, metadata: { accountId: 'x', resolvedAt: '2026-01-02T00:00:00Z' } }}
          onMarkRead={() => {}}
        />
      </ul>,
    )
    expect(screen.getByText('Resolved: the account is active again')).toBeInTheDocument()
    rerender(
      <ul>
        <NotificationItem
          notification={{
            ...alert,
            metadata: { accountId: 'x', resolvedAt: '2026-01-02T00:00:00Z', resolution: 'deleted' },
          }}
          onMarkRead={() => {}}
        />
      </ul>,
    )
    expect(screen.getByText('Resolved: the account was removed')).toBeInTheDocument()
  })

  it('is an error outside its provider', () => {
    const quiet = console.error
    console.error = () => {}
    try {
      expect(() => render(<UnreadCountProbe />)).toThrow(
        'useNotifications must be used within a NotificationsProvider',
      )
    } finally {
      console.error = quiet
    }
  })
})

/** Inserts notifications for a user as the system would (service role), oldest first. */
async function notify(userId: string, rows: Array<{ type: string; title: string; read?: boolean }>) {
  const base = Date.now() - rows.length * 60_000
  const { error } = await serviceClient()
    .from('notifications')
    .insert(
      rows.map((row, i) => ({
        user_id: userId,
        type: row.type,
        title: row.title,
        message: `About ${row.title}`,
        read: row.read ?? false,
        read_at: row.read ? new Date(base).toISOString() : null,
        created_at: new Date(base + i * 60_000).toISOString(),
      })),
    )
  if (error) throw error
}

async function storedRows(userId: string) {
  const { data, error } = await serviceClient()
    .from('notifications')
    .select('title, read, read_at')
    .eq('user_id', userId)
  if (error) throw error
  return data as Array<{ title: string; read: boolean; read_at: string | null }>
}

describe('notifications dropdown against the gateway (product.md §2, §7)', () => {
  it("shows 'Loading...', then 'No notifications yet' for a new user", async () => {
    const { client } = await signedUpUser('bell-empty')
    render(
      <NotificationsProvider client={client}>
        <NotificationsBell />
      </NotificationsProvider>,
    )
    // Opened synchronously, before the first request can have answered.
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }))
    const panel = screen.getByRole('dialog', { name: 'Notifications' })
    expect(within(panel).getByText('Loading...')).toBeInTheDocument()
    await within(panel).findByText('No notifications yet')
    expect(screen.queryByTestId('notifications-badge')).toBeNull()
    expect(within(panel).getByRole('button', { name: 'Mark all as read' })).toBeDisabled()
  })

  it('lists newest first, marks one read (read_at stored), then marks all read', async () => {
    const { client, userId } = await signedUpUser('bell-read')
    await notify(userId, [
      { type: 'campaign_completed', title: 'Old and read', read: true },
      { type: 'campaign_failed', title: 'Campaign failed' },
      { type: 'account_flagged', title: 'Account flagged' },
      { type: 'warmup_phase_completed', title: 'Warm-up done' },
    ])
    render(
      <NotificationsProvider client={client}>
        <NotificationsBell />
      </NotificationsProvider>,
    )
    const bell = await screen.findByRole('button', { name: 'Notifications, 3 unread' })
    expect(screen.getByTestId('notifications-badge')).toHaveTextContent('3')
    await userEvent.click(bell)
    const panel = screen.getByRole('dialog', { name: 'Notifications' })
    const rows = within(panel).getAllByRole('listitem')
    expect(rows.map((row) => row.querySelector('[data-icon]')?.getAttribute('data-icon'))).toEqual([
      'warmup_phase_completed',
      'account_flagged',
      'campaign_failed',
      'campaign_completed',
    ])

    await userEvent.click(within(panel).getByRole('button', { name: /Unread:\s*Account flagged/ }))
    await waitFor(() => expect(screen.getByTestId('notifications-badge')).toHaveTextContent('2'))
    const flagged = (await storedRows(userId)).find((row) => row.title === 'Account flagged')
    expect(flagged?.read).toBe(true)
    expect(flagged?.read_at).not.toBeNull()

    await userEvent.click(within(panel).getByRole('button', { name: 'Mark all as read' }))
    await waitFor(() => expect(screen.queryByTestId('notifications-badge')).toBeNull())
    expect((await storedRows(userId)).every((row) => row.read && row.read_at)).toBe(true)
    expect(within(panel).queryByText('Unread:', { exact: false })).toBeNull()

    await userEvent.click(within(panel).getByRole('button', { name: 'Close notifications' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("a member's bell shows the workspace's notifications, whoever they name, but not the owner's billing ones", async () => {
    const owner = await signedUpUser('bell-owner')
    const editor = await signedUpUser('bell-editor')
    // the editor works in the owner's personal workspace (its id is the owner's)
    const joined = await serviceClient()
      .from('workspace_members')
      .insert({ workspace_id: owner.userId, user_id: editor.userId, role: 'editor' })
    if (joined.error) throw joined.error
    const switched = await serviceClient()
      .from('user_profiles')
      .update({ active_workspace_id: owner.userId })
      .eq('id', editor.userId)
    if (switched.error) throw switched.error
    await notify(owner.userId, [
      { type: 'payment_failed', title: 'Payment failed' },
      { type: 'campaign_completed', title: 'Campaign completed' },
    ])
    render(
      <NotificationsProvider client={editor.client}>
        <NotificationsBell />
      </NotificationsProvider>,
    )
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }))
    const rows = within(screen.getByRole('dialog', { name: 'Notifications' })).getAllByRole('listitem')
    expect(rows.map((row) => row.querySelector('[data-icon]')?.getAttribute('data-icon'))).toEqual([
      'campaign_completed',
    ])
  })

  it("caps the badge at '99+' and lists the newest 20; polling picks up new ones", async () => {
    const { client, userId } = await signedUpUser('bell-many')
    await notify(
      userId,
      Array.from({ length: 105 }, (_, i) => ({ type: 'scraping_completed', title: `Batch ${i + 1}` })),
    )
    render(
      <NotificationsProvider client={client} pollMs={300}>
        <NotificationsBell />
      </NotificationsProvider>,
    )
    await waitFor(() => expect(screen.getByTestId('notifications-badge')).toHaveTextContent('99+'))
    await userEvent.click(screen.getByRole('button', { name: 'Notifications, 99+ unread' }))
    const rows = within(screen.getByRole('dialog')).getAllByRole('listitem')
    expect(rows).toHaveLength(20)
    expect(rows[0]).toHaveTextContent('Batch 105')

    await act(async () => {
      await serviceClient().from('notifications').update({ read: true }).eq('user_id', userId)
    })
    await notify(userId, [{ type: 'campaign_completed', title: 'Fresh one' }])
    await waitFor(() => expect(screen.getByTestId('notifications-badge')).toHaveTextContent('1'), {
      timeout: 5000,
    })
  })
})

describe('the bell by role (an agent and a viewer may not mark notifications read)', () => {
  afterEach(() => useWorkspaceStore.setState({ status: 'idle', workspaces: [], userId: null, error: null }))

  it("lists a viewer's notifications with no count, no Mark all as read, and no row to click", async () => {
    const { userId: ownerId } = await signedUpUser('bell-owner')
    const { client, userId } = await signedUpUser('bell-viewer')
    const service = serviceClient()
    const joined = await service
      .from('workspace_members')
      .insert({ workspace_id: ownerId, user_id: userId, role: 'viewer' })
    if (joined.error) throw joined.error
    const switched = await client.rpc('set_active_workspace', { p_workspace_id: ownerId })
    if (switched.error) throw switched.error
    const written = await service.from('notifications').insert([
      {
        user_id: userId,
        workspace_id: ownerId,
        type: 'campaign_completed',
        title: 'Campaign done',
        metadata: {},
      },
      {
        user_id: userId,
        workspace_id: ownerId,
        type: 'lead_replied',
        title: 'New reply',
        metadata: { threadId: crypto.randomUUID() },
      },
    ])
    if (written.error) throw written.error
    workAs('viewer')
    const opened: string[] = []
    render(
      <NotificationsProvider client={client}>
        <NotificationsBell onOpenReply={(threadId) => opened.push(threadId)} />
      </NotificationsProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }))
    const panel = screen.getByRole('dialog', { name: 'Notifications' })
    await within(panel).findByText('Campaign done')
    expect(within(panel).getByText('New reply')).toBeInTheDocument()
    expect(screen.queryByTestId('notifications-badge')).toBeNull()
    expect(within(panel).queryByRole('button', { name: 'Mark all as read' })).toBeNull()
    // the only button left in the panel closes it: no row marks read or opens an inbox they lack
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Close notifications'])
    expect((await storedRows(userId)).every((row) => !row.read)).toBe(true)
    expect(opened).toEqual([])
  })
  it('opens a reply for an agent, who has the inbox, without marking it read', async () => {
    const { userId: ownerId } = await signedUpUser('bell-owner')
    const { client, userId } = await signedUpUser('bell-agent')
    const service = serviceClient()
    const joined = await service
      .from('workspace_members')
      .insert({ workspace_id: ownerId, user_id: userId, role: 'agent' })
    if (joined.error) throw joined.error
    const switched = await client.rpc('set_active_workspace', { p_workspace_id: ownerId })
    if (switched.error) throw switched.error
    const threadId = crypto.randomUUID()
    const written = await service.from('notifications').insert({
      user_id: userId,
      workspace_id: ownerId,
      type: 'lead_replied',
      title: 'New reply',
      metadata: { threadId },
    })
    if (written.error) throw written.error
    workAs('agent')
    const opened: string[] = []
    render(
      <NotificationsProvider client={client}>
        <NotificationsBell onOpenReply={(id) => opened.push(id)} />
      </NotificationsProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }))
    const panel = screen.getByRole('dialog', { name: 'Notifications' })
    const reply = await within(panel).findByRole('button', { name: /New reply/ })
    expect(within(panel).queryByRole('button', { name: 'Mark all as read' })).toBeNull()
    await userEvent.click(reply)
    expect(opened).toEqual([threadId])
    expect((await storedRows(userId)).every((row) => !row.read)).toBe(true)
  })
})

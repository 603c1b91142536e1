import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { useWorkspaceStore, type WorkspaceSummary } from '@/lib/workspace/workspace-store'
import { renderApp } from '@/testing/render-app'
import { SEARCH_FROM, WorkspaceSwitcher } from './workspace-switcher'

function haveWorkspaces(names: string[]): void {
  const workspaces: WorkspaceSummary[] = names.map((name, i) => ({
    id: `ws-${i}`,
    name,
    role: i === 0 ? 'owner' : 'admin',
    isActive: i === 0,
    memberCount: 2,
  }))
  useWorkspaceStore.setState({ status: 'ready', error: null, userId: null, workspaces })
}

const clients = (count: number) => Array.from({ length: count }, (_, i) => `Client ${i + 1}`)

afterEach(() => useWorkspaceStore.setState({ status: 'idle', workspaces: [], error: null, userId: null }))

describe('WorkspaceSwitcher', () => {
  it('lists a few workspaces without a search, and focuses the first one', async () => {
    haveWorkspaces(clients(SEARCH_FROM - 1))
    renderApp(<WorkspaceSwitcher />)
    await userEvent.click(screen.getByRole('button', { name: 'Workspace: Client 1' }))
    const menu = screen.getByRole('menu', { name: 'Workspaces' })
    expect(screen.queryByRole('searchbox', { name: 'Find a workspace' })).toBeNull()
    expect(within(menu).getAllByRole('menuitemradio')).toHaveLength(SEARCH_FROM - 1)
    expect(within(menu).getByRole('menuitemradio', { name: /Client 1/ })).toHaveFocus()
  })

  it('finds a client among many by name, says when none matches, and forgets the search on close', async () => {
    haveWorkspaces([...clients(18), 'Northwind Dental', 'Acme Roofing'])
    renderApp(<WorkspaceSwitcher />)
    const toggle = screen.getByRole('button', { name: 'Workspace: Client 1' })
    await userEvent.click(toggle)
    const search = screen.getByRole('searchbox', { name: 'Find a workspace' })
    expect(search).toHaveFocus()
    expect(screen.getAllByRole('menuitemradio')).toHaveLength(20)

    await userEvent.type(search, 'DENTAL')
    const found = screen.getAllByRole('menuitemradio')
    expect(found.map((item) => item.textContent)).toEqual([expect.stringContaining('Northwind Dental')])
    await userEvent.keyboard('{ArrowDown}')
    expect(found[0]).toHaveFocus()

    await userEvent.clear(search)
    await userEvent.type(search, 'bakery')
    expect(screen.queryAllByRole('menuitemradio')).toHaveLength(0)
    expect(screen.getByText('No workspace matches “bakery”.')).toBeInTheDocument()
    // Creating one stays at hand when the search finds nothing.
    expect(screen.getByRole('menuitem', { name: 'Create workspace' })).toBeInTheDocument()

    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(toggle).toHaveFocus()
    await userEvent.click(toggle)
    expect(screen.getByRole('searchbox', { name: 'Find a workspace' })).toHaveValue('')
    expect(screen.getAllByRole('menuitemradio')).toHaveLength(20)
  })
})

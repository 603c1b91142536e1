import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { AddPersonDialog } from './components/add-person-dialog'

// Only the transport is replaced: the dialog's real request builder and texts run.
const transport = vi.hoisted(() => ({ rpc: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ supabase: { rpc: transport.rpc } }))

beforeEach(() => transport.rpc.mockReset())

/** As rpc/add_do_not_contact answers for one entry. */
const answers = (outcome: 'added' | 'already') =>
  transport.rpc.mockResolvedValue({ data: [{ entry: 0, outcome, error: null }], error: null })

async function addPerson(username: string) {
  const onClose = vi.fn()
  const u = userEvent.setup()
  renderApp(<AddPersonDialog onClose={onClose} />)
  await u.type(screen.getByLabelText('Username'), username)
  await u.click(screen.getByRole('button', { name: 'Add to list' }))
  return onClose
}

describe('adding one person to the do-not-contact list', () => {
  it('keeps the dialog open and says so when they are already on the list', async () => {
    answers('already')
    const onClose = await addPerson('already_listed')
    expect(await screen.findByRole('status')).toHaveTextContent(
      '@already_listed is already on the do-not-contact list for Twitter. Nothing was changed.',
    )
    expect(screen.getByRole('dialog', { name: 'Add to the do-not-contact list' })).toBeInTheDocument()
    expect(onClose).not.toHaveBeenCalled()
    expect(transport.rpc).toHaveBeenCalledWith('add_do_not_contact', {
      p_entries: [{ platform: 'twitter', username: 'already_listed', reason: '' }],
    })
  })

  it('closes once someone new is added', async () => {
    answers('added')
    const onClose = await addPerson('new_person')
    await vi.waitFor(() => expect(onClose).toHaveBeenCalledOnce())
    expect(screen.queryByText(/already on the do-not-contact list/)).not.toBeInTheDocument()
  })
})

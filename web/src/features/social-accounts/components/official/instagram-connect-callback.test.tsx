import type { User } from '@supabase/supabase-js'
import { FunctionsHttpError } from '@supabase/supabase-js'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuth } from '@/lib/auth-store'
import { INSTAGRAM_CALLBACK_TEXT, InstagramConnectCallback } from './instagram-connect-callback'

const transport = vi.hoisted(() => ({ invoke: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ supabase: { functions: { invoke: transport.invoke } } }))

const CUSTOMER = { id: 'u1', email: 'dana@studio.example' } as User

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/connect/instagram/callback', element: <InstagramConnectCallback /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: [url] },
  )
  render(<RouterProvider router={router} />)
  return router
}

beforeEach(() => {
  transport.invoke.mockReset()
  useAuth.setState({ user: CUSTOMER, session: null, loading: false })
})

describe('the page Instagram returns the browser to', () => {
  it('names the workspace and adds the account only when the customer confirms', async () => {
    const user = userEvent.setup()
    transport.invoke.mockResolvedValue({ data: { username: 'studio_ig' }, error: null })
    const router = renderAt('/connect/instagram/callback?state=s-1&code=c-2')
    expect(
      await screen.findByRole('heading', { name: 'Add this Instagram account to Reachflow?' }),
    ).toBeVisible()
    expect(screen.getByText('dana@studio.example')).toBeVisible()
    expect(transport.invoke).not.toHaveBeenCalled()
    await user.click(screen.getByRole('button', { name: 'Add to this workspace' }))
    expect(await screen.findByText('dashboard')).toBeVisible()
    expect(transport.invoke).toHaveBeenCalledTimes(1)
    expect(transport.invoke).toHaveBeenCalledWith('instagram-official/finish', {
      method: 'POST',
      body: { state: 's-1', code: 'c-2', browserKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    })
    expect(router.state.location.search).toBe('?tab=social-accounts&instagram=connected&username=studio_ig')
  })

  it('tells a browser without a Reachflow session that nothing was connected, and sends nothing', async () => {
    useAuth.setState({ user: null, session: null, loading: false })
    renderAt('/connect/instagram/callback?state=s-1&code=c-2')
    expect(await screen.findByRole('alert')).toHaveTextContent(INSTAGRAM_CALLBACK_TEXT.signedOut)
    expect(screen.queryByRole('button', { name: 'Add to this workspace' })).toBeNull()
    expect(transport.invoke).not.toHaveBeenCalled()
  })

  it("passes the server's refusal on to the Accounts tab", async () => {
    const user = userEvent.setup()
    const refusal =
      'This Instagram connection was started by another Reachflow account, so nothing was connected.'
    transport.invoke.mockResolvedValue({
      data: null,
      error: new FunctionsHttpError(new Response(JSON.stringify({ error: refusal }), { status: 403 })),
    })
    const router = renderAt('/connect/instagram/callback?state=s-1&code=c-2')
    await user.click(await screen.findByRole('button', { name: 'Add to this workspace' }))
    expect(await screen.findByText('dashboard')).toBeVisible()
    const params = new URLSearchParams(router.state.location.search)
    expect(params.get('instagram')).toBe('error')
    expect(params.get('message')).toBe(refusal)
  })
})

import type { User } from '@supabase/supabase-js'
import { FunctionsHttpError } from '@supabase/supabase-js'
import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuth } from '@/lib/auth-store'
import { XOfficialCallback } from './x-official-callback'

const transport = vi.hoisted(() => ({ invoke: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ supabase: { functions: { invoke: transport.invoke } } }))

function renderAt(url: string) {
  // as the route renders it: no query client around it
  const router = createMemoryRouter([{ path: '/connect/x/callback', element: <XOfficialCallback /> }], {
    initialEntries: [url],
  })
  render(<RouterProvider router={router} />)
}

beforeEach(() => {
  transport.invoke.mockReset()
  useAuth.setState({
    user: { id: 'u1', email: 'dana@studio.example' } as User,
    session: null,
    loading: false,
  })
})

describe('the page X returns the customer to', () => {
  it('hands code and state to the api once and says the account is connected', async () => {
    transport.invoke.mockResolvedValue({
      data: { id: 'a1', username: 'acme', reconnected: false },
      error: null,
    })
    renderAt('/connect/x/callback?state=s-123&code=c-456')
    expect(await screen.findByRole('heading', { name: 'X account connected' })).toBeInTheDocument()
    expect(screen.getByText(/@acme is connected through the X API/)).toBeInTheDocument()
    expect(screen.getByText('dana@studio.example')).toBeInTheDocument()
    expect(transport.invoke).toHaveBeenCalledTimes(1)
    expect(transport.invoke).toHaveBeenCalledWith('api/social-accounts/x-official/callback', {
      method: 'POST',
      // this browser's key goes along: the api finishes only a connect started here
      body: { state: 's-123', code: 'c-456', browserKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    })
  })

  it("passes X's error on and shows the api's reason", async () => {
    transport.invoke.mockResolvedValue({
      data: null,
      error: new FunctionsHttpError(
        new Response(JSON.stringify({ error: 'You chose Cancel on X, so no account was connected.' }), {
          status: 400,
        }),
      ),
    })
    renderAt('/connect/x/callback?state=s-1&error=access_denied')
    expect(await screen.findByRole('alert')).toHaveTextContent('You chose Cancel on X')
    expect(transport.invoke.mock.calls[0]?.[1]).toEqual({
      method: 'POST',
      body: {
        state: 's-1',
        error: 'access_denied',
        browserKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      },
    })
  })
})

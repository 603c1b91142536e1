import type { User } from '@supabase/supabase-js'
import { render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useAuth } from '@/lib/auth-store'
import { ProtectedRoute } from './protected-route'

const user = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ana@example.com',
  user_metadata: {},
} as User

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        element: (
          <ProtectedRoute>
            <p>Dashboard page</p>
          </ProtectedRoute>
        ),
      },
      { path: '/login', element: <p>Login page</p> },
    ],
    { initialEntries: [path] },
  )
  render(<RouterProvider router={router} />)
  return router
}

afterEach(() => {
  useAuth.setState({ user: null, session: null, loading: true })
  window.history.replaceState(null, '', '/')
})

describe('ProtectedRoute', { timeout: 30_000 }, () => {
  it('shows a spinner while the auth lookup runs', () => {
    useAuth.setState({ loading: true, user: null })
    renderAt('/dashboard')
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument()
  })

  it('sends a signed-out visitor to /login', async () => {
    useAuth.setState({ loading: false, user: null })
    const router = renderAt('/dashboard')
    expect(await screen.findByText('Login page')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')
  })

  it('shows the page when the profile cannot be read (the failure is logged)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    useAuth.setState({ loading: false, user })
    renderAt('/dashboard')
    expect(await screen.findByText('Dashboard page', {}, { timeout: 25_000 })).toBeInTheDocument()
    expect(logged).toHaveBeenCalledWith('Error fetching user profile', expect.anything())
    logged.mockRestore()
  })

  it('coming back from payment, removes payment=success from the address and waits 1 s', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    window.history.replaceState(null, '', '/dashboard?payment=success&source=fb-offer')
    useAuth.setState({ loading: false, user })
    const started = Date.now()
    renderAt('/dashboard?payment=success&source=fb-offer')
    await waitFor(() => expect(window.location.search).toBe('?source=fb-offer'))
    expect(screen.queryByText('Dashboard page')).not.toBeInTheDocument()
    expect(await screen.findByText('Dashboard page', {}, { timeout: 25_000 })).toBeInTheDocument()
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
    logged.mockRestore()
  })
})

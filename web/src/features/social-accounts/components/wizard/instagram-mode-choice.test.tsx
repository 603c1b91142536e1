import { FunctionsHttpError } from '@supabase/supabase-js'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { InstagramModeChoice } from './instagram-mode-choice'

// Only the transport is replaced: the request goes through supabase-js's functions client.
const transport = vi.hoisted(() => ({ invoke: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ supabase: { functions: { invoke: transport.invoke } } }))

const assign = vi.fn()
beforeEach(() => {
  transport.invoke.mockReset()
  assign.mockReset()
  vi.stubGlobal('location', { ...window.location, assign })
})

describe('InstagramModeChoice', () => {
  it('compares the two ways and sends the customer to Instagram for the official one', async () => {
    transport.invoke.mockResolvedValue({
      data: { url: 'https://www.instagram.com/oauth/authorize?state=s' },
      error: null,
    })
    renderApp(<InstagramModeChoice canAdd />)
    expect(screen.getByText('Official Instagram API')).toBeInTheDocument()
    expect(screen.getByText('Browser sign-in')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Connect with Instagram' }))
    expect(transport.invoke).toHaveBeenCalledWith('instagram-official/connect', { method: 'POST' })
    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://www.instagram.com/oauth/authorize?state=s'),
    )
  })

  it("shows the server's reason when the connection cannot start, and is off when the plan is full", async () => {
    transport.invoke.mockResolvedValue({
      data: null,
      error: new FunctionsHttpError(
        new Response(
          JSON.stringify({
            error: 'Too many Instagram connections started. Wait a few minutes and try again.',
          }),
          {
            status: 400,
          },
        ),
      ),
    })
    const { unmount } = renderApp(<InstagramModeChoice canAdd />)
    await userEvent.click(screen.getByRole('button', { name: 'Connect with Instagram' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many Instagram connections started.')
    expect(assign).not.toHaveBeenCalled()
    unmount()
    renderApp(<InstagramModeChoice canAdd={false} />)
    expect(screen.getByRole('button', { name: 'Connect with Instagram' })).toBeDisabled()
  })
})

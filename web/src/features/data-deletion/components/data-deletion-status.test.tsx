import { FunctionsHttpError } from '@supabase/supabase-js'
import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { DataDeletionStatus } from './data-deletion-status'

// Only the transport is replaced: the lookup goes through supabase-js's functions client.
const transport = vi.hoisted(() => ({ invoke: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ supabase: { functions: { invoke: transport.invoke } } }))

// as the route renders it: no query client around it
const renderAt = (url: string) =>
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: '/data-deletion', element: <DataDeletionStatus /> }], {
        initialEntries: [url],
      })}
    />,
  )

beforeEach(() => transport.invoke.mockReset())

describe('Instagram data deletion status page', () => {
  it('says a request is complete, and when', async () => {
    transport.invoke.mockResolvedValue({
      data: {
        confirmation_code: 'A1B2C3D4E5F60718',
        status: 'completed',
        requested_at: '2026-11-27T10:00:00Z',
        accounts_deleted: 1,
      },
      error: null,
    })
    renderAt('/data-deletion?code=a1b2c3d4e5f60718')
    expect(await screen.findByText(/is complete/)).toHaveTextContent(
      'Reachflow deleted the data it held about your Instagram account (the connection, its automations and its conversations).',
    )
    expect(transport.invoke).toHaveBeenCalledWith('instagram-webhook/data-deletion?code=a1b2c3d4e5f60718', {
      method: 'GET',
    })
  })

  it('says when no request has the code, and asks for the link when the code is malformed', async () => {
    transport.invoke.mockResolvedValue({
      data: null,
      error: new FunctionsHttpError(
        new Response(JSON.stringify({ error: 'No deletion request has this confirmation code.' }), {
          status: 404,
        }),
      ),
    })
    const { unmount } = renderAt('/data-deletion?code=FFFFFFFFFFFFFFFF')
    expect(await screen.findByText(/No deletion request has the code/)).toHaveTextContent('FFFFFFFFFFFFFFFF')
    unmount()
    renderAt('/data-deletion?code=nope')
    expect(screen.getByText(/Open the link from Instagram/)).toBeInTheDocument()
    expect(transport.invoke).toHaveBeenCalledTimes(1)
  })

  it('reads a 32-digit code, and says when the address looked up too often', async () => {
    const code = 'A1B2C3D4E5F60718A1B2C3D4E5F60718'
    transport.invoke.mockResolvedValue({
      data: null,
      error: new FunctionsHttpError(
        new Response(JSON.stringify({ error: 'Too many lookups from your address.' }), { status: 429 }),
      ),
    })
    renderAt(`/data-deletion?code=${code}`)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many lookups from your address. Try again in a few minutes.',
    )
    expect(transport.invoke).toHaveBeenCalledWith(`instagram-webhook/data-deletion?code=${code}`, {
      method: 'GET',
    })
  })
})

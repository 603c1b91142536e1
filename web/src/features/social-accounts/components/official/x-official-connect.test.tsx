import { FunctionsHttpError } from '@supabase/supabase-js'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { AddAccountWizard } from '../wizard/add-account-wizard'

// Only the transport is replaced: the wizard, its X API hook-in and the request builders are real.
const transport = vi.hoisted(() => ({ invoke: vi.fn(), rpc: vi.fn() }))
vi.mock('@/lib/supabase', () => ({
  supabase: { functions: { invoke: transport.invoke }, rpc: transport.rpc },
}))

const PLATFORMS = [
  { id: 1, name: 'twitter', display_name: 'Twitter', is_active: true, coming_soon: false },
  { id: 2, name: 'instagram', display_name: 'Instagram', is_active: true, coming_soon: false },
]
const ALLOWED = { canAddAccount: true, currentCount: 0, limit: 2, planType: 'growth', error: null }
const CALLBACK = 'https://app.reachflow.test/connect/x/callback'
const AUTHORIZE = 'https://x.com/i/oauth2/authorize?client_id=abc&state=s'
const KEYS_REJECTED = 'X did not accept this Client ID and Client Secret.'

let started: unknown
let rejectKeys = false
const assign = vi.fn()
beforeEach(() => {
  started = undefined
  rejectKeys = false
  assign.mockReset()
  vi.stubGlobal('location', { ...window.location, assign })
  transport.rpc.mockReset().mockResolvedValue({ data: ALLOWED, error: null })
  transport.invoke.mockReset().mockImplementation(async (path: string, options?: { body?: unknown }) => {
    if (path === 'api/social-accounts/platforms') return { data: PLATFORMS, error: null }
    if (path === 'api/social-accounts/x-official/setup')
      return { data: { redirectUri: CALLBACK, scopes: ['dm.read'] }, error: null }
    if (path === 'api/social-accounts/x-official/start') {
      started = options?.body
      if (rejectKeys)
        return {
          data: null,
          error: new FunctionsHttpError(
            new Response(JSON.stringify({ error: KEYS_REJECTED }), { status: 422 }),
          ),
        }
      return { data: { authorizeUrl: AUTHORIZE }, error: null }
    }
    throw new Error(`unexpected ${path}`)
  })
})

async function toOfficialConnect(user: ReturnType<typeof userEvent.setup>) {
  renderApp(<AddAccountWizard onClose={() => {}} />)
  await user.click(await screen.findByRole('button', { name: /Twitter/ }))
  // the two ways are compared side by side; the browser path stays the default
  expect(screen.getByRole('radio', { name: /Browser sign-in/ })).toBeChecked()
  expect(screen.getByText(/Sends DMs through the official API/)).toBeInTheDocument()
  await user.click(screen.getByRole('radio', { name: /X API \(your developer app\)/ }))
  await user.click(screen.getByRole('button', { name: 'Next' }))
  return screen.findByRole('dialog', { name: 'Connect X through the X API' })
}

describe('connecting X through the X API from the add-account wizard', () => {
  it('shows the callback URI to register, checks the keys with the api, then goes to X', async () => {
    const user = userEvent.setup()
    await toOfficialConnect(user)
    expect(await screen.findByTestId('x-callback-uri')).toHaveTextContent(CALLBACK)
    const go = screen.getByRole('button', { name: 'Continue to X' })
    expect(go).toBeDisabled()
    await user.type(screen.getByLabelText('Client ID'), ' abc-client-id ')
    await user.type(screen.getByLabelText('Client Secret'), 'secret-secret-secret-1')
    await user.click(go)
    await waitFor(() => expect(assign).toHaveBeenCalledWith(AUTHORIZE))
    expect(started).toEqual({
      clientId: 'abc-client-id',
      clientSecret: 'secret-secret-secret-1',
      browserKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    })
  })

  it('says why X refused the keys and stays on the form; Back returns to the platform step', async () => {
    const user = userEvent.setup()
    rejectKeys = true
    await toOfficialConnect(user)
    await user.type(screen.getByLabelText('Client ID'), 'abc-client-id')
    await user.type(screen.getByLabelText('Client Secret'), 'wrong-secret-wrong-1')
    await user.click(screen.getByRole('button', { name: 'Continue to X' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(KEYS_REJECTED)
    expect(assign).not.toHaveBeenCalled()
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(await screen.findByRole('radio', { name: /X API/ })).toBeChecked()
  })
})

import { FunctionsHttpError } from '@supabase/supabase-js'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/testing/render-app'
import { ACCOUNT_REVIEW_TEXT, AddAccountWizard } from './add-account-wizard'

// Only the transport is replaced: every request the wizard makes goes through supabase-js, so the
// real request builders, limit check and error texts run.
const transport = vi.hoisted(() => ({ invoke: vi.fn(), rpc: vi.fn() }))
vi.mock('@/lib/supabase', () => ({
  supabase: { functions: { invoke: transport.invoke }, rpc: transport.rpc },
}))

const PLATFORMS = [
  { id: 1, name: 'twitter', display_name: 'Twitter', is_active: true, coming_soon: false },
  { id: 2, name: 'instagram', display_name: 'Instagram', is_active: true, coming_soon: false },
  { id: 3, name: 'linkedin', display_name: 'LinkedIn', is_active: false, coming_soon: true },
]
// As rpc/check_account_limit answers: error is null when another account may be added.
const ALLOWED = { canAddAccount: true, currentCount: 0, limit: 2, planType: 'growth', error: null }
// Values shaped like X's (auth_token 40 hex, ct0 32+ hex): the form checks them with the api's parser.
const AUTH_TOKEN = 'e6e526c0814857148cc1f15afe37ff9c07b0bd1c'
const CT0 = '631de522eb283a50f47cc354ae8e296fdafb8be8659fd0495a273c6d2286c2e8'
const COOKIES = JSON.stringify([
  { name: 'auth_token', value: AUTH_TOKEN },
  { name: 'ct0', value: CT0 },
])
const COOKIE_HEADER = `auth_token=${AUTH_TOKEN}; ct0=${CT0}`
const NOT_REJECTED =
  'X did not reject these cookies. Only signing in with them in a browser proves they work: Reachflow does that, and opens X Chat, when the account is added or tested.'

function httpError(status: number, body: unknown) {
  return new FunctionsHttpError(new Response(JSON.stringify(body), { status, statusText: 'Bad' }))
}

let created: unknown
const assign = vi.fn()
beforeEach(() => {
  created = undefined
  assign.mockReset()
  // the official Instagram way leaves the app for Instagram's consent page
  vi.stubGlobal('location', { ...window.location, assign })
  transport.rpc.mockReset().mockResolvedValue({ data: ALLOWED, error: null })
  transport.invoke.mockReset().mockImplementation(async (path: string, options?: { body?: unknown }) => {
    if (path === 'api/social-accounts/platforms') return { data: PLATFORMS, error: null }
    if (path === 'api/social-accounts/validate-cookies')
      return {
        data: { valid: null, rejected: false, message: NOT_REJECTED },
        error: null,
      }
    if (path === 'instagram-official/connect')
      return { data: { url: 'https://www.instagram.com/oauth/authorize?state=s' }, error: null }
    if (path === 'api/social-accounts') {
      created = options?.body
      return { data: { id: 'new', username: 'dana_x' }, error: null }
    }
    throw new Error(`unexpected ${path}`)
  })
})

const next = () => screen.getByRole('button', { name: 'Next' })

async function toAuthentication(user: ReturnType<typeof userEvent.setup>, platform: string) {
  await user.click(await screen.findByRole('button', { name: new RegExp(platform) }))
  await user.click(next())
  await user.type(screen.getByLabelText('Username'), '@dana_x')
  await user.click(next())
}

describe('Add Social Media Account wizard (product.md §2 Modals 2, §5)', () => {
  it("shows 'Checking account limits...', then 'Ready to Add Account'", async () => {
    let answer: (value: unknown) => void = () => {}
    transport.rpc.mockReturnValue(new Promise((resolve) => (answer = resolve)))
    renderApp(<AddAccountWizard onClose={() => {}} />)
    expect(screen.getByText('Checking account limits...')).toBeInTheDocument()
    answer({ data: ALLOWED, error: null })
    expect(await screen.findByText('Ready to Add Account')).toBeInTheDocument()
  })

  it('step 1 needs an active platform; coming-soon ones cannot be picked', async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    expect(await screen.findByRole('button', { name: /LinkedIn/ })).toBeDisabled()
    expect(screen.getByRole('button', { name: /LinkedIn/ })).toHaveTextContent('Coming soon')
    expect(next()).toBeDisabled()
    // a disabled Next says why
    expect(screen.getByText('Choose a platform to connect')).toBeInTheDocument()
    expect(next()).toHaveAccessibleDescription('Choose a platform to connect')
    await user.click(screen.getByRole('button', { name: /Twitter/ }))
    expect(next()).toBeEnabled()
    expect(screen.queryByText('Choose a platform to connect')).toBeNull()
  })

  it('step 2 needs a trimmed username without @; the proxy is optional but must be user:pass@host:port', async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await user.click(await screen.findByRole('button', { name: /Twitter/ }))
    await user.click(next())
    expect(next()).toBeDisabled()
    await user.type(screen.getByLabelText('Username'), '  @ ')
    expect(next()).toBeDisabled()
    await user.clear(screen.getByLabelText('Username'))
    await user.type(screen.getByLabelText('Username'), 'dana_x')
    expect(next()).toBeEnabled()
    await user.type(screen.getByLabelText(/Proxy URL/), 'not a proxy')
    expect(screen.getByText('Proxy URL must look like user:pass@host:port')).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.clear(screen.getByLabelText(/Proxy URL/))
    await user.type(screen.getByLabelText(/Proxy URL/), 'user:pass@proxy.example.com:8080')
    expect(next()).toBeEnabled()
  })

  it('compares the browser and the official way the same for both platforms; the browser is the default', async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    for (const [platform, official] of [
      ['Twitter', /X API \(your developer app\)/],
      ['Instagram', /Official Instagram API/],
    ] as const) {
      await user.click(await screen.findByRole('button', { name: new RegExp(platform) }))
      const group = screen.getByRole('group', { name: /How should Reachflow connect to/ })
      expect(group).toHaveTextContent(platform === 'Twitter' ? 'connect to X?' : 'connect to Instagram?')
      expect(screen.getByRole('radio', { name: /Browser sign-in/ })).toBeChecked()
      expect(screen.getByRole('radio', { name: official })).not.toBeChecked()
    }
    expect(next()).toHaveTextContent('Next')
  })

  it('Continue to Instagram opens Instagram’s consent page for the official way', async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await user.click(await screen.findByRole('button', { name: /Instagram/ }))
    await user.click(screen.getByRole('radio', { name: /Official Instagram API/ }))
    expect(screen.getByText(/Continue to Instagram to sign in there and allow Reachflow/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Continue to Instagram' }))
    expect(transport.invoke).toHaveBeenCalledWith('instagram-official/connect', {
      method: 'POST',
      body: { browserKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    })
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://www.instagram.com/oauth/authorize?state=s'),
    )
  })

  it("shows the server's reason when the Instagram connection cannot start", async () => {
    transport.invoke.mockImplementation(async (path: string) => {
      if (path === 'api/social-accounts/platforms') return { data: PLATFORMS, error: null }
      if (path === 'instagram-official/connect')
        return {
          data: null,
          error: httpError(400, {
            error: 'Too many Instagram connections started. Wait a few minutes and try again.',
          }),
        }
      throw new Error(`unexpected ${path}`)
    })
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await user.click(await screen.findByRole('button', { name: /Instagram/ }))
    await user.click(screen.getByRole('radio', { name: /Official Instagram API/ }))
    await user.click(screen.getByRole('button', { name: 'Continue to Instagram' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many Instagram connections started.')
    expect(assign).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Continue to Instagram' })).toBeEnabled()
  })

  it('Instagram needs a password; the 2FA secret is optional', async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await toAuthentication(user, 'Instagram')
    expect(screen.getByLabelText(/2FA secret key/)).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.type(screen.getByLabelText('Instagram password'), 'hunter2')
    expect(next()).toBeEnabled()
  })

  it("X needs cookies the parser takes: 'Invalid cookie format or validation failed' with the reason; Validate is inactive while blank", async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await toAuthentication(user, 'Twitter')
    const validate = screen.getByRole('button', { name: 'Validate cookies' })
    expect(validate).toBeDisabled()
    expect(next()).toBeDisabled()
    expect(next()).toHaveAccessibleDescription('Cookies are required for Twitter accounts')
    await user.type(screen.getByLabelText('Cookies (JSON)'), 'auth_token=abc')
    const invalid = /^Invalid cookie format or validation failed: Cookies must include auth_token and ct0/
    expect(screen.getByText(invalid)).toBeInTheDocument()
    expect(screen.getByLabelText('Cookies (JSON)')).toHaveAccessibleDescription(invalid)
    expect(next()).toBeDisabled()
    await user.click(validate)
    // Said once: the field's error already names the problem.
    await waitFor(() => expect(validate).toBeEnabled())
    expect(screen.getAllByText(invalid)).toHaveLength(1)
    await user.clear(screen.getByLabelText('Cookies (JSON)'))
    await user.click(screen.getByLabelText('Cookies (JSON)'))
    await user.paste(COOKIES)
    expect(next()).toBeEnabled()
  })

  it("Validate says only what X showed (never that the cookies work), or 'Validation failed' with the server's reason", async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await toAuthentication(user, 'Twitter')
    await user.click(screen.getByLabelText('Cookies (JSON)'))
    await user.paste(COOKIES)
    await user.click(screen.getByRole('button', { name: 'Validate cookies' }))
    const status = await screen.findByRole('status')
    expect(status).toHaveTextContent(NOT_REJECTED)
    expect(status).not.toHaveTextContent(/valid|signed in as|success/i)
    transport.invoke.mockResolvedValueOnce({
      data: null,
      error: httpError(422, { error: 'Session expired' }),
    })
    await user.click(screen.getByRole('button', { name: 'Validate cookies' }))
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Validation failed: Session expired'),
    )
  })

  it('takes the cookie header a browser shows (auth_token=…; ct0=…) and sends it as pasted', async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await toAuthentication(user, 'Twitter')
    await user.click(screen.getByLabelText('Cookies (JSON)'))
    await user.paste(`Cookie: ${COOKIE_HEADER}`)
    expect(screen.queryByText(/Invalid cookie format/)).toBeNull()
    await user.click(next())
    await user.click(screen.getByRole('button', { name: 'Add Account' }))
    await screen.findByText(/Signing in to X as @dana_x/)
    expect(created).toMatchObject({ authData: { cookies: `Cookie: ${COOKIE_HEADER}` } })
  })

  it('the X Chat passcode is optional and must be 4 digits', async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await toAuthentication(user, 'Twitter')
    await user.click(screen.getByLabelText('Cookies (JSON)'))
    await user.paste(COOKIES)
    await user.type(screen.getByLabelText(/X Chat passcode/), '12')
    expect(screen.getByText('The X Chat passcode must be 4 digits')).toBeInTheDocument()
    expect(next()).toBeDisabled()
    await user.type(screen.getByLabelText(/X Chat passcode/), '34')
    expect(next()).toBeEnabled()
  })

  it('reviews with the test note and posts the documented body', async () => {
    const user = userEvent.setup()
    const onClose = vi.fn()
    renderApp(<AddAccountWizard onClose={onClose} />)
    await screen.findByText('Ready to Add Account')
    await toAuthentication(user, 'Twitter')
    await user.click(screen.getByLabelText('Cookies (JSON)'))
    await user.paste(COOKIES)
    await user.click(next())
    expect(screen.getByText(ACCOUNT_REVIEW_TEXT)).toBeInTheDocument()
    expect(ACCOUNT_REVIEW_TEXT).toMatch(/tested after creation.*may take a few minutes/)
    await user.click(screen.getByRole('button', { name: 'Add Account' }))
    // No success before the runner's test has passed: the check is shown as it runs.
    expect(await screen.findByText(/Signing in to X as @dana_x/)).toBeInTheDocument()
    expect(screen.getByText('Details saved, encrypted')).toBeInTheDocument()
    expect(screen.queryByText('Account connected successfully!')).toBeNull()
    expect(onClose).not.toHaveBeenCalled()
    expect(created).toEqual({
      platform: 'twitter',
      username: 'dana_x',
      authData: { cookies: JSON.parse(COOKIES), chatPasscode: null },
      proxyUrl: null,
    })
  })

  it("with the limit reached: 'Account Limit Reached', the free-plan text and an upgrade link; Next is disabled", async () => {
    const user = userEvent.setup()
    transport.rpc.mockResolvedValue({
      data: {
        canAddAccount: false,
        currentCount: 1,
        limit: 1,
        planType: 'free',
        error: 'No subscription found',
      },
      error: null,
    })
    renderApp(<AddAccountWizard onClose={() => {}} />)
    expect(await screen.findByText('Account Limit Reached')).toBeInTheDocument()
    expect(
      screen.getByText(
        'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute(
      'href',
      '/billing?change=plan',
    )
    await user.click(await screen.findByRole('button', { name: /Twitter/ }))
    expect(next()).toBeDisabled()
  })

  it("a failing limit check blocks adding with 'Failed to check account limits'", async () => {
    transport.rpc.mockResolvedValue({ data: null, error: { message: 'boom' } })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    renderApp(<AddAccountWizard onClose={() => {}} />)
    expect(await screen.findByText('Account Limit Reached')).toBeInTheDocument()
    expect(screen.getByText('Failed to check account limits')).toBeInTheDocument()
  })

  it('re-checks the limit before adding, and shows the server and network errors with the product texts', async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await toAuthentication(user, 'Instagram')
    await user.type(screen.getByLabelText('Instagram password'), 'hunter2')
    await user.click(next())

    transport.rpc.mockResolvedValueOnce({
      data: { canAddAccount: false, currentCount: 2, limit: 2, planType: 'growth', error: null },
      error: null,
    })
    await user.click(screen.getByRole('button', { name: 'Add Account' }))
    expect(
      await screen.findByText('Account limit reached. Please upgrade your plan to add more accounts.', {
        selector: '[role=alert]',
      }),
    ).toBeInTheDocument()
    expect(created).toBeUndefined()
  })

  it("'Failed to add account: {error}' and 'Failed to add account. Please try again.'", async () => {
    const user = userEvent.setup()
    renderApp(<AddAccountWizard onClose={() => {}} />)
    await screen.findByText('Ready to Add Account')
    await toAuthentication(user, 'Instagram')
    await user.type(screen.getByLabelText('Instagram password'), 'hunter2')
    await user.click(next())
    const invoke = transport.invoke.getMockImplementation()
    transport.invoke.mockImplementation(async (path: string, options?: unknown) => {
      if (path === 'api/social-accounts')
        return {
          data: null,
          error: httpError(422, { error: 'Account limit reached. You have 1/1 accounts.' }),
        }
      return invoke?.(path, options)
    })
    await user.click(screen.getByRole('button', { name: 'Add Account' }))
    expect(
      await screen.findByText('Failed to add account: Account limit reached. You have 1/1 accounts.'),
    ).toBeInTheDocument()
    transport.invoke.mockImplementation(async (path: string, options?: unknown) => {
      if (path === 'api/social-accounts') throw new TypeError('Failed to fetch')
      return invoke?.(path, options)
    })
    await user.click(screen.getByRole('button', { name: 'Add Account' }))
    expect(await screen.findByText('Failed to add account. Please try again.')).toBeInTheDocument()
  })
})

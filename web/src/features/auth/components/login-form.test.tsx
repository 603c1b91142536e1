import { AuthError, type User } from '@supabase/supabase-js'
import { fireEvent, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { sameOriginPath } from '../api/return-path'
import { signInOutcome } from '../api/sign-in'
import { googleRedirectTarget } from '../api/sign-in-with-google'
import { signUpOutcome } from '../api/sign-up'
import { LoginForm, type LoginMode } from './login-form'

function renderForm(initialMode: LoginMode = 'signin') {
  const router = createMemoryRouter([{ path: '*', element: <LoginForm initialMode={initialMode} /> }])
  render(<RouterProvider router={router} />)
}

describe('login form (product.md §2, §4, §5)', () => {
  it("Sign In mode: 'Welcome Back' and its subtitle, with the sign-up link", () => {
    renderForm()
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument()
    expect(screen.getByText('Sign in to continue your automation')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: "Don't have an account? Sign up here" })).toBeInTheDocument()
    expect(screen.getByLabelText('Email address')).toHaveAttribute('type', 'email')
  })

  it("toggles to Create Account: 'Start automating your DMs today' and the sign-in link", () => {
    renderForm()
    fireEvent.click(screen.getByRole('button', { name: "Don't have an account? Sign up here" }))
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument()
    expect(screen.getByText('Start automating your DMs today')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Already have an account? Sign in here' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create Account' })).toHaveAttribute('type', 'submit')
  })

  it.each([
    ['both empty', '', ''],
    ['no password', 'ana@example.com', ''],
    ['no e-mail', '', 'secret'],
  ])('with %s it shows the red error and submits nothing', async (_case, email, password) => {
    renderForm()
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: email } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter both email and password')
    expect(screen.getByRole('button', { name: 'Sign In' })).not.toBeDisabled()
  })

  it('sign-up says the password rule, and a short password gets a visible message without a request', async () => {
    renderForm('signup')
    const password = screen.getByLabelText('Password')
    expect(password).toHaveAccessibleDescription('At least 6 characters.')
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ana@example.com' } })
    fireEvent.change(password, { target: { value: 'abc12' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Password should be at least 6 characters.')
    expect(password).toHaveAttribute('aria-invalid', 'true')
    expect(password).toHaveFocus()
    expect(fetchSpy).not.toHaveBeenCalled()
    fetchSpy.mockRestore()
    // typing again clears it (product.md §4)
    fireEvent.change(password, { target: { value: 'abc123' } })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(password).toHaveAttribute('aria-invalid', 'false')
  })

  it("while signing in shows 'Signing In...', disables both buttons, then shows the service error", async () => {
    renderForm()
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ana@example.com' } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-password' } })
    // The network is slowed down so the busy state is observable before the failure comes back.
    const realFetch = globalThis.fetch
    const slowed = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation((...args) => new Promise((r) => setTimeout(r, 300)).then(() => realFetch(...args)))
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    const busy = await screen.findByRole('button', { name: 'Signing In...' })
    expect(busy).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled()
    // The test client points at a closed port: the failure comes back as an error, not a redirect.
    expect(await screen.findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent(/fetch/i)
    expect(screen.getByRole('button', { name: 'Sign In' })).not.toBeDisabled()
    slowed.mockRestore()
  }, 20_000)

  it('clears the error as soon as an input changes', async () => {
    renderForm()
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }))
    expect(await screen.findByRole('alert')).toBeInTheDocument()
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'a' } })
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})

const user = { id: 'u1' } as User
const authError = (message: string) => new AuthError(message, 400, 'invalid_credentials')

describe('sign-in and sign-up outcomes (product.md §8)', () => {
  it('sign-in shows the service message, else a fixed text; no user is an error', () => {
    expect(signInOutcome({ data: { user: null }, error: authError('Invalid login credentials') })).toEqual({
      ok: false,
      error: 'Invalid login credentials',
    })
    expect(signInOutcome({ data: { user: null }, error: authError('') })).toEqual({
      ok: false,
      error: 'Login failed. Please check your credentials.',
    })
    expect(signInOutcome({ data: { user: null }, error: null })).toEqual({
      ok: false,
      error: 'User information missing. Please try signing in again.',
    })
    expect(signInOutcome({ data: { user }, error: null })).toEqual({ ok: true, home: 'dashboard' })
    const operator = { ...user, app_metadata: { role: 'admin' } } as typeof user
    expect(signInOutcome({ data: { user: operator }, error: null })).toEqual({ ok: true, home: 'admin' })
  })

  it('sign-up shows the service message, else a fixed text; no user is an error', () => {
    expect(signUpOutcome({ data: { user: null }, error: authError('User already registered') })).toEqual({
      ok: false,
      error: 'User already registered',
    })
    expect(signUpOutcome({ data: { user: null }, error: authError('') })).toEqual({
      ok: false,
      error: 'Sign up failed. Please try again.',
    })
    expect(signUpOutcome({ data: { user: null }, error: null })).toEqual({
      ok: false,
      error: 'Account creation failed. Please try again.',
    })
  })

  it('Google returns to /dashboard, to /?checkout=continue from a checkout flow, or to the invitation', () => {
    const origin = 'https://app.test'
    expect(googleRedirectTarget(origin, { checkoutFlow: false })).toBe('https://app.test/dashboard')
    expect(googleRedirectTarget(origin, { checkoutFlow: true })).toBe('https://app.test/?checkout=continue')
    expect(googleRedirectTarget(origin, { checkoutFlow: false, returnTo: '/invite/abc' })).toBe(
      'https://app.test/invite/abc',
    )
  })

  it('returns only to a path on this site: other hosts, schemes and absolute URLs are ignored', () => {
    const origin = 'https://app.test'
    expect(sameOriginPath('/invite/abc?x=1#y', origin)).toBe('/invite/abc?x=1#y')
    for (const elsewhere of [
      '//evil.example',
      '//evil.example/invite/abc',
      '/\\evil.example',
      'https://evil.example/invite/abc',
      'https://app.test/invite/abc',
      'javascript:alert(1)',
      'invite/abc',
      '',
      undefined,
    ]) {
      expect(sameOriginPath(elsewhere, origin), String(elsewhere)).toBeUndefined()
      expect(googleRedirectTarget(origin, { checkoutFlow: false, returnTo: elsewhere })).toBe(
        'https://app.test/dashboard',
      )
    }
  })
})

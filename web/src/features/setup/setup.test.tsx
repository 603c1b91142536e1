import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { LimitBanner } from '@/components/accounts/limit-banner'
import {
  COOKIES_REQUIRED,
  connectAccountSchema,
  connectFormProblem,
  INVALID_COOKIES,
  MISSING_DETAILS,
  PASSWORD_REQUIRED,
} from '@/lib/accounts/connect-account'
import type { AccountLimit } from '@/lib/accounts/types'

const form = { platform: '', username: '', password: '', secretKey: '', cookies: '', proxyUrl: '' }

describe('connect account validation (product.md §5)', () => {
  it('needs a platform and a username', () => {
    expect(connectFormProblem(form)).toBe(MISSING_DETAILS)
    expect(connectFormProblem({ ...form, platform: 'twitter', username: '   ' })).toBe(MISSING_DETAILS)
    expect(MISSING_DETAILS).toBe('Please fill in all required account details')
  })

  it('needs a password for Instagram', () => {
    expect(connectFormProblem({ ...form, platform: 'instagram', username: 'ana' })).toBe(PASSWORD_REQUIRED)
    expect(PASSWORD_REQUIRED).toBe('Password is required for Instagram accounts')
    expect(connectFormProblem({ ...form, platform: 'instagram', username: 'ana', password: 'pw' })).toBeNull()
  })

  it('needs cookies for Twitter, in any format the parser takes', () => {
    const auth = 'e6e526c0814857148cc1f15afe37ff9c07b0bd1c'
    const ct0 = '631de522eb283a50f47cc354ae8e296fdafb8be8659fd0495a273c6d2286c2e8'
    const x = (cookies: string) =>
      connectFormProblem({ ...form, platform: 'twitter', username: 'ana', cookies })
    expect(x('')).toBe(COOKIES_REQUIRED)
    expect(COOKIES_REQUIRED).toBe('Cookies are required for Twitter accounts')
    expect(x('auth_token=1')).toMatch(
      new RegExp(`^${INVALID_COOKIES}: Cookies must include auth_token and ct0`),
    )
    expect(x('[{"name":"ct0","value":"x"}]')).toMatch(new RegExp(`^${INVALID_COOKIES}: `))
    expect(x('[{"name":"auth_token"')).toBe(
      `${INVALID_COOKIES}: Cookies look like JSON but do not parse: check that the whole export was pasted.`,
    )
    for (const accepted of [
      JSON.stringify([
        { name: 'auth_token', value: auth, domain: '.x.com', sameSite: 'no_restriction' },
        { name: 'ct0', value: ct0, domain: '.x.com', sameSite: 'lax' },
      ]),
      JSON.stringify({
        cookies: [
          { name: 'auth_token', value: auth },
          { name: 'ct0', value: ct0 },
        ],
      }),
      JSON.stringify({ auth_token: auth, ct0 }),
      `auth_token=${auth}; ct0=${ct0}`,
      `Cookie: auth_token=${auth}; ct0=${ct0}; twid=u%3D123`,
      `.x.com\tTRUE\t/\tTRUE\t0\tauth_token\t${auth}\n.x.com\tTRUE\t/\tTRUE\t0\tct0\t${ct0}`,
    ])
      expect(x(accepted)).toBeNull()
  })

  it('drops a leading @ from the username', () => {
    expect(
      connectAccountSchema.parse({ ...form, platform: 'instagram', username: '@ana', password: 'x' })
        .username,
    ).toBe('ana')
  })
})

function renderBanner(limit: AccountLimit | null) {
  const router = createMemoryRouter([{ path: '*', element: <LimitBanner limit={limit} /> }])
  render(<RouterProvider router={router} />)
}

describe('limit banner (product.md §2, §8)', () => {
  it("says 'Checking account limits...' while checking", () => {
    renderBanner(null)
    expect(screen.getByText('Checking account limits...')).toBeInTheDocument()
  })

  it("says 'Ready to Add Account' when allowed", () => {
    renderBanner({ canAddAccount: true, currentCount: 0, limit: 1, planType: 'free' })
    expect(screen.getByText('Ready to Add Account')).toBeInTheDocument()
  })

  it("says 'Account Limit Reached' with the free-plan text and an upgrade link", () => {
    renderBanner({
      canAddAccount: false,
      currentCount: 1,
      limit: 1,
      planType: 'free',
      error: 'No subscription found',
    })
    expect(screen.getByText('Account Limit Reached')).toBeInTheDocument()
    expect(
      screen.getByText(
        'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute(
      'href',
      '/billing?change=plan',
    )
  })

  it('shows the count on a paid plan at its limit, with the way to buy more accounts', () => {
    renderBanner({
      canAddAccount: false,
      currentCount: 3,
      limit: 3,
      planType: 'growth',
      error: 'Account limit reached. You have 3/3 accounts.',
    })
    expect(screen.getByText('Account limit reached. You have 3/3 accounts.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Add more accounts' })).toHaveAttribute(
      'href',
      '/billing?change=plan',
    )
  })
})

import { expect, test } from '@playwright/test'
import { outboxLink, signUp, uniqueEmail } from './support'

const password = 'e2e-password-123'

test.describe('sign-in and sign-up (product.md §2, §4, §8)', () => {
  test('empty fields show the red error without a request', async ({ page }) => {
    await page.goto('/login')
    let authCalls = 0
    page.on('request', (request) => {
      if (request.url().includes('/auth/v1/token') || request.url().includes('/auth/v1/signup')) authCalls++
    })
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page.getByRole('alert')).toHaveText('Please enter both email and password')
    expect(authCalls).toBe(0)
  })

  test('sign-up goes to /dashboard, then /login sends the signed-in visitor back there', async ({ page }) => {
    await signUp(page, uniqueEmail('signup'), password)
    await page.goto('/login')
    await expect(page).toHaveURL(/\/dashboard/)
  })

  test("a wrong password shows the service's message", async ({ page }) => {
    const email = uniqueEmail('wrong')
    await signUp(page, email, password)
    await page.context().clearCookies()
    await page.evaluate(() => localStorage.clear())
    await page.goto('/login')
    await page.getByLabel('Email address').fill(email)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page.getByRole('alert')).toHaveText('Invalid login credentials')
    await page.getByLabel('Password').fill('x')
    await expect(page.getByRole('alert')).toHaveCount(0)
  })

  test('signing up twice shows the service message for an existing user', async ({ page }) => {
    const email = uniqueEmail('twice')
    await signUp(page, email, password)
    await page.evaluate(() => localStorage.clear())
    await page.goto('/login')
    await page.getByRole('button', { name: "Don't have an account? Sign up here" }).click()
    await page.getByLabel('Email address').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByRole('alert')).toHaveText('User already registered')
  })

  test("a too-short password on sign-up shows the service's message", async ({ page }) => {
    await page.goto('/login')
    await page.getByRole('button', { name: "Don't have an account? Sign up here" }).click()
    await page.getByLabel('Email address').fill(uniqueEmail('short'))
    await page.getByLabel('Password').fill('123')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByRole('alert')).toHaveText('Password should be at least 6 characters.')
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled()
  })

  test('an unreachable auth service shows the client error and clears the loading state', async ({
    page,
  }) => {
    await page.goto('/login')
    // The network, not our service, fails: the request never leaves the browser.
    await page.route('**/auth/v1/token**', (route) => route.abort('internetdisconnected'))
    await page.getByLabel('Email address').fill(uniqueEmail('offline'))
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await expect(page.getByRole('alert')).toHaveText('Failed to fetch')
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled()
  })

  test('guarded pages send a signed-out visitor to /login', async ({ page }) => {
    for (const path of ['/dashboard', '/settings', '/billing', '/admin']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/login$/)
    }
  })

  test('Start Free Trial opens sign-up in checkout mode', async ({ page }) => {
    await page.goto('/')
    await page
      .getByRole('link', { name: /Start Free Trial/ })
      .first()
      .click()
    await expect(page).toHaveURL(/\/login\?checkout=true$/)
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible()
  })
})

test.describe('Google sign-in through the sandbox', () => {
  test('returns to /dashboard', async ({ page }) => {
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with Google' }).click()
    await page.getByText('Gina Google').click()
    await expect(page).toHaveURL(/\/dashboard/)
  })

  test("cancelling on Google's page shows 'Google sign in error: …' on /login", async ({ page }) => {
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with Google' }).click()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByRole('alert')).toHaveText('Google sign in error: The user denied access')
    await page.getByLabel('Email address').fill('a')
    await expect(page.getByRole('alert')).toHaveCount(0)
  })

  test('from a checkout flow returns to /?checkout=continue, signed in', async ({ page }) => {
    await page.goto('/login?checkout=true')
    await page.getByRole('button', { name: 'Sign up with Google' }).click()
    await page.getByText('Gina Google').click()
    await expect(page).toHaveURL(/\/\?checkout=continue/)
    await expect(
      page.getByText('You are signed in. Choose your plan to start your 3-day free trial.'),
    ).toBeVisible()
    await expect(page.getByText('Gina Google').first()).toBeVisible()
  })
})

test('password recovery through the local outbox', async ({ page }) => {
  const email = uniqueEmail('reset')
  await signUp(page, email, password)
  await page.evaluate(() => localStorage.clear())
  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  // The Auth UI form resets its fields while it settles after loading; fill once it has.
  await page.waitForLoadState('networkidle')
  await expect(async () => {
    await page.getByLabel('Email address').fill(email)
    await expect(page.getByLabel('Email address')).toHaveValue(email, { timeout: 500 })
  }).toPass()
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByText('Check your e-mail for the password reset link.')).toBeVisible()
  await page.goto(await outboxLink(email, 'type=recovery'))
  await expect(page).toHaveURL(/\/update-password/)
  const newPassword = page.getByLabel('New password', { exact: true })
  await newPassword.fill('a-brand-new-password-456')
  await expect(newPassword).toHaveAttribute('type', 'password')
  await page.getByRole('button', { name: 'Show passwords' }).click()
  await expect(newPassword).toHaveAttribute('type', 'text')
  await page.getByLabel('Confirm new password').fill('a-brand-new-password-45')
  await page.getByRole('button', { name: 'Update password' }).click()
  await expect(page.getByText('Passwords do not match')).toBeVisible()
  await page.getByLabel('Confirm new password').fill('a-brand-new-password-456')
  await page.getByRole('button', { name: 'Update password' }).click()
  await expect(page.getByRole('heading', { name: 'Your password has been updated' })).toBeVisible()
})

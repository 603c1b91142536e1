// Every login error text of product.md §8 through the running app and the real gateway (auth.spec.ts
// has the wrong password, existing user, short password and Google cancel). Where the failure is
// the network or the browser, the test makes that failure real (a closed port, a script that
// cannot load) rather than faking our gateway's answer.
import { createServer } from 'node:net'
import { expect, type Page, test } from '@playwright/test'
import { apiUrl, signUpThroughApi, uniqueEmail } from './support'

const password = 'e2e-password-123'

/** A port nothing listens on: bound by the kernel, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function signInThroughForm(page: Page, email: string, secret: string): Promise<void> {
  await page.getByLabel('Email address').fill(email)
  await page.getByLabel('Password').fill(secret)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

test.describe('login error texts (product.md §8)', () => {
  test("too many wrong passwords: the gateway's 429 'Request rate limit reached'", async ({ page }) => {
    const email = uniqueEmail('ratelimit')
    // Ten failed attempts for one address is the gateway's per-address limit (stack/src/services.ts).
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: process.env.SUPABASE_ANON_KEY ?? '', 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: `wrong-${attempt}` }),
      })
      expect(response.status).toBe(400)
    }
    await page.goto('/login')
    const answered = page.waitForResponse((r) => r.url().includes('/auth/v1/token'))
    await signInThroughForm(page, email, 'wrong-again')
    expect((await answered).status()).toBe(429)
    await expect(page.getByRole('alert')).toHaveText('Request rate limit reached')
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled()
  })

  test("an account whose e-mail is not confirmed: 'Email not confirmed'", async ({ page }) => {
    const email = uniqueEmail('unconfirmed')
    const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY ?? ''
    const created = await fetch(`${apiUrl}/auth/v1/admin/users`, {
      method: 'POST',
      headers: {
        apikey: serviceKey,
        Authorization: `Bearer ${serviceKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ email, password, email_confirm: false }),
    })
    expect(created.ok, await created.text()).toBe(true)
    await page.goto('/login')
    await signInThroughForm(page, email, password)
    await expect(page.getByRole('alert')).toHaveText('Email not confirmed')
  })

  test("the gateway unreachable (a closed port): 'Failed to fetch', loading cleared", async ({ page }) => {
    const port = await closedPort()
    await page.goto('/login')
    // The request really goes to a port nothing listens on, as when the gateway is down.
    await page.route('**/auth/v1/token**', (route) =>
      route.continue({ url: `http://127.0.0.1:${port}/auth/v1/token?grant_type=password` }),
    )
    await signInThroughForm(page, uniqueEmail('closed'), password)
    await expect(page.getByRole('alert')).toHaveText('Failed to fetch')
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled()
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled()
  })

  test("the sign-in code cannot load: 'An unexpected error occurred. Please try again.'", async ({
    page,
  }) => {
    await page.goto('/login')
    // The Supabase client loads on first use; a connection lost before then makes that a failure.
    await page.route('**/assets/supabase-*.js', (route) => route.abort('connectionreset'))
    await signInThroughForm(page, uniqueEmail('unexpected'), password)
    await expect(page.getByRole('alert')).toHaveText('An unexpected error occurred. Please try again.')
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled()
  })

  test("Google sign-in that cannot start: 'Google sign in failed. Please try again.'", async ({ page }) => {
    await page.goto('/login')
    await page.route('**/assets/supabase-*.js', (route) => route.abort('connectionreset'))
    await page.getByRole('button', { name: 'Sign in with Google' }).click()
    await expect(page.getByRole('alert')).toHaveText('Google sign in failed. Please try again.')
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled()
  })

  test("an auth service that answers a sign-up without a user: 'Account creation failed. Please try again.'", async ({
    page,
  }) => {
    // Our gateway always returns the user; this stands in for a service answering outside its
    // contract (HTTP 200, empty object), which the text exists for.
    await page.route('**/auth/v1/signup**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'Access-Control-Allow-Origin': '*' },
        body: '{}',
      }),
    )
    await page.goto('/login')
    await page.getByRole('button', { name: "Don't have an account? Sign up here" }).click()
    await page.getByLabel('Email address').fill(uniqueEmail('nouser'))
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await expect(page.getByRole('alert')).toHaveText('Account creation failed. Please try again.')
  })
})

test.describe('prerendered pages (built into the HTML, then hydrated)', () => {
  for (const [path, heading] of [
    ['/', 'booked sales calls'],
    ['/login', 'Welcome Back'],
  ] as const) {
    test(`${path} arrives as HTML and hydrates in place, without React errors`, async ({ page, request }) => {
      const html = await (await request.get(path, { headers: { accept: 'text/html' } })).text()
      expect(html).toContain(`data-prerendered="${path}"`)
      expect(html).toContain(heading)
      // Before hydration a submit would be the browser's GET with the password in the address.
      if (path === '/login') expect(html).toMatch(/<button type="submit"[^>]*disabled=""/)
      const problems: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text())
      })
      page.on('pageerror', (e) => problems.push(e.message))
      // Hydration keeps the server's elements; a client re-render would replace the heading.
      await page.addInitScript(() => {
        const w = window as unknown as { headingReplaced: boolean }
        w.headingReplaced = false
        new MutationObserver((records) => {
          for (const r of records)
            for (const n of r.removedNodes)
              if (n instanceof Element && n.querySelector('h1')) w.headingReplaced = true
        }).observe(document, { childList: true, subtree: true })
      })
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(heading) })).toBeVisible()
      await page.waitForLoadState('networkidle')
      expect(
        await page.evaluate(() => (window as unknown as { headingReplaced: boolean }).headingReplaced),
      ).toBe(false)
      expect(problems).toEqual([])
    })
  }

  test('a click before the page is live is held and replayed once it hydrates', async ({ page }) => {
    // The app's code is held back until the click is in, so the click lands on the bare HTML.
    let release = () => {}
    const codeHeld = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/assets/*.js', async (route) => {
      await codeHeld
      await route.continue()
    })
    await page.goto('/login', { waitUntil: 'domcontentloaded' })
    await page.getByRole('button', { name: "Don't have an account? Sign up here" }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome Back')
    release()
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible()
    await expect(page).toHaveURL(/\/login$/)
  })

  test('a signed-in visitor on /login never sees the prerendered form: straight to /dashboard', async ({
    page,
  }) => {
    await signUpThroughApi(page, uniqueEmail('signedin'), password)
    const seen: string[] = []
    await page.exposeFunction('reportHeading', (text: string) => seen.push(text))
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const h1 = document.querySelector('h1')
        ;(window as unknown as { reportHeading: (t: string) => void }).reportHeading(h1?.textContent ?? '')
      })
    })
    await page.goto('/login')
    await expect(page).toHaveURL(/\/dashboard/)
    expect(seen).not.toContain('Welcome Back')
  })

  test('other routes get the plain shell, not the landing page', async ({ request }) => {
    const html = await (await request.get('/settings', { headers: { accept: 'text/html' } })).text()
    expect(html).not.toContain('data-prerendered')
    expect(html).toContain('<div id="root"></div>')
  })
})

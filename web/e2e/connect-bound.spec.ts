// An Instagram connect belongs to the browser that started it. Customer D starts "Connect
// Instagram" and passes Instagram's consent link on: the business pressing Allow in its own browser
// (no Reachflow session) is told nothing was connected; D signed in on a second browser cannot
// finish it either. Only the starting browser, after it confirms the workspace it saw named,
// connects the account. Google sign-in is bound the same way by PKCE: its code is worth nothing in
// a browser without the verifier.
import { expect, test } from '@playwright/test'
import { sql } from './db'
import { chooseOfficial, confirmWorkspace, sandboxAccount, signInOnInstagram } from './meta-sandbox'
import { signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

const PASSWORD = 'e2e-password-123'

test('an Instagram consent finished in another browser connects nothing; the starting browser connects', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000)
  const email = uniqueEmail('ig-bound')
  const userId = await signUpThroughApi(page, email, PASSWORD)
  await skipOnboarding(userId)
  await page.goto('/dashboard?tab=social-accounts')
  const business = await sandboxAccount()
  const accounts = () => sql('select id from public.social_accounts where user_id = $1', [userId])

  // D leaves for Instagram's consent screen and copies its address instead of answering
  await chooseOfficial(page)
  await expect(page.getByRole('heading', { name: /Log in to continue to Reachflow/ })).toBeVisible()
  const consentLink = page.url()

  // the business opens it in its own browser and allows
  const theirs = await browser.newContext()
  const theirPage = await theirs.newPage()
  await theirPage.goto(consentLink)
  await signInOnInstagram(theirPage, business)
  await theirPage.getByRole('button', { name: 'Allow' }).click()
  await expect(theirPage).toHaveURL(/\/connect\/instagram\/callback\?/)
  await expect(theirPage.getByRole('alert')).toHaveText(
    'This Instagram connection can only be finished in the browser that started it, signed in to Reachflow, so nothing was connected. If you did not start it, you can close this page.',
  )
  await expect(theirPage.getByRole('button', { name: 'Add to this workspace' })).toHaveCount(0)
  const forwarded = theirPage.url()
  await theirs.close()
  expect(await accounts()).toEqual([])

  // D signed in on a second browser, handed the same return address, cannot finish it either
  const second = await browser.newContext()
  const secondPage = await second.newPage()
  await secondPage.goto('/login')
  await secondPage.getByLabel('Email address').fill(email)
  await secondPage.getByLabel('Password').fill(PASSWORD)
  await secondPage.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(secondPage).toHaveURL(/\/dashboard/)
  await secondPage.goto(forwarded.replace(/^https?:\/\/[^/]+/, ''))
  await expect(secondPage.getByText(email)).toBeVisible()
  await secondPage.getByRole('button', { name: 'Add to this workspace' }).click()
  await expect(secondPage.getByRole('alert')).toContainText(
    'This Instagram connection expired, was already used, or was started in another browser, so nothing was connected.',
  )
  await second.close()
  expect(await accounts()).toEqual([])

  // the browser that started a connect finishes it, after naming the workspace
  await page.goto('/dashboard?tab=social-accounts')
  await chooseOfficial(page)
  await signInOnInstagram(page, business)
  await page.getByRole('button', { name: 'Allow' }).click()
  await expect(page.getByText(email)).toBeVisible()
  await confirmWorkspace(page)
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `@${business.username} is connected through Instagram's API` }),
  ).toBeVisible()
  expect(await accounts()).toHaveLength(1)
})

test("a Google sign-in's consent finished in another browser signs nobody in there", async ({
  page,
  browser,
}) => {
  const signedIn = (p: typeof page) =>
    p.evaluate(() => Object.keys(window.localStorage).some((key) => /^sb-.+-auth-token$/.test(key)))
  await page.goto('/login')
  await page.getByRole('button', { name: 'Sign in with Google' }).click()
  await expect(page.getByText('Gina Google')).toBeVisible()
  const consentLink = page.url()

  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await otherPage.goto(consentLink)
  await otherPage.getByText('Gina Google').click()
  // back with a code, but this browser has no PKCE verifier for it: no session, the sign-in page
  await expect(otherPage).toHaveURL(/\/login/)
  expect(await signedIn(otherPage)).toBe(false)
  await other.close()

  // that flow is spent; the browser that starts again is signed in
  await page.goto('/login')
  await page.getByRole('button', { name: 'Sign in with Google' }).click()
  await page.getByText('Gina Google').click()
  await expect(page).toHaveURL(/\/dashboard/)
  await expect.poll(() => signedIn(page), { timeout: 15_000 }).toBe(true)
})

// The dashboard reads its tab badges from one call per change, never a burst of
// HEAD count requests, and a refresh does not abort requests it just sent.
import { expect, type Request, test } from '@playwright/test'
import { signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

test('tab badges come from one rpc/dashboard_counts call; no HEAD requests, none aborted', async ({
  page,
}) => {
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail('requests'), 'e2e-password-123'))

  await page.goto('/dashboard')
  await expect(page.getByRole('tab', { name: /Leads/ })).toBeVisible()
  await page.waitForLoadState('networkidle')
  // From here on (a navigation itself aborts the previous page's requests):
  const api: Request[] = []
  const failed: string[] = []
  page.on('request', (request) => {
    if (/\/(rest|functions)\/v1\//.test(request.url())) api.push(request)
  })
  page.on('requestfailed', (request) => {
    // Chromium reports a response without a body as failed with net::ERR_ABORTED even when it
    // arrived (microsoft/playwright#32752): the bell's HEAD count always is, and the initial load's
    // one lands in this window when a loaded machine reaches network idle before reporting it.
    // The tab badges send no HEAD at all (checked below), so a HEAD here is never theirs.
    if (/\/(rest|functions)\/v1\//.test(request.url()) && request.method() !== 'HEAD')
      failed.push(`${request.method()} ${request.url()} ${request.failure()?.errorText}`)
  })

  for (const tab of ['Leads', 'Social Accounts', 'Lead Scraping', 'Campaigns'])
    await page.getByRole('tab', { name: new RegExp(tab) }).click()
  await page.waitForLoadState('networkidle')
  // The customer comes back to the browser tab once the data is stale (staleTime 5 s): the
  // dashboard refetches what it shows, badges included — the moment it used to fire six HEADs.
  await page.waitForTimeout(5_500)
  await page.evaluate(() => {
    const setVisibility = (state: string) => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true })
      window.dispatchEvent(new Event('visibilitychange'))
    }
    setVisibility('hidden')
    setVisibility('visible')
  })
  await expect.poll(() => api.filter((r) => r.url().includes('/rpc/dashboard_counts')).length).toBe(1)
  await page.waitForLoadState('networkidle')

  // The notifications bell counts unread rows with one HEAD a minute (product.md §9); the tab badges use none.
  expect(
    api
      .filter((r) => r.method() === 'HEAD' && !r.url().includes('/rest/v1/notifications'))
      .map((r) => r.url()),
  ).toEqual([])
  expect(failed).toEqual([])
  // The cold load seeds the badges from rpc/dashboard_snapshot; the refetch is one call.
  expect(api.filter((r) => r.url().includes('/rpc/dashboard_counts'))).toHaveLength(1)
})

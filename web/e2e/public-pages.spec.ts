import { expect, test } from '@playwright/test'

test('a signed-out visit to the landing page does not load the Supabase client', async ({ page }) => {
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url())
  })
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.waitForLoadState('networkidle')
  // Matches the client in dev (deps, lib/supabase.ts) and in the build (assets/supabase-*.js).
  expect(
    scripts.filter((url) => /@supabase|supabase-js|assets\/supabase-|lib\/supabase\.ts/.test(url)),
  ).toEqual([])
})

test('the ads variant remembers its traffic source and counts down', async ({ page }) => {
  await page.goto('/fb-offer')
  await expect(page.getByRole('timer')).toHaveText(/23:59:5\d/)
  const stored = await page.evaluate(() => [
    sessionStorage.getItem('traffic_source'),
    localStorage.getItem('conversion_source'),
  ])
  expect(stored).toEqual(['fb-offer', 'fb-offer'])
  await expect(page.getByRole('link', { name: /Start Free Trial/ }).first()).toHaveAttribute(
    'href',
    '/login?checkout=true&source=fb-offer',
  )
})

test('the demo video keeps its poster when the video host is unreachable', async ({ page }) => {
  await page.route(/youtube|vimeo|loom/, (route) => route.abort('internetdisconnected'))
  await page.goto('/#demo')
  await page.getByRole('button', { name: 'Play the Reachflow demo video' }).click()
  await expect(page.getByText('The demo video cannot load right now.', { exact: false })).toBeVisible()
  await expect(page.locator('iframe')).toHaveCount(0)
})

test('/cancel and /success without a session id', async ({ page }) => {
  await page.goto('/cancel')
  await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible()
  await page.getByRole('link', { name: 'Try Payment Again' }).click()
  await expect(page).toHaveURL(/\/#pricing$/)
  await page.goto('/success')
  await expect(page.getByRole('heading', { name: 'Error Loading Payment Details' })).toBeVisible()
  await expect(page.getByText('No session ID found')).toBeVisible()
})

// The dashboard and the landing page at a 390 px phone width, as a new customer.
import { expect, test } from '@playwright/test'
import { signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

test.use({ viewport: { width: 390, height: 844 } })

test('the campaign search box is usable and the status chips scroll with a visible affordance', async ({
  page,
}) => {
  await skipOnboarding(await signUpThroughApi(page, uniqueEmail('mobile'), 'e2e-password-123'))
  await page.goto('/dashboard?tab=campaigns')
  const search = page.getByRole('searchbox', { name: 'Search campaigns' })
  await expect(search).toBeVisible()
  // The whole placeholder fits: the box spans the content width, not a squeezed slot beside buttons.
  const box = await search.boundingBox()
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(300)
  expect(await search.evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth)).toBe(true)

  // Nothing on the page scrolls sideways; the chip strip scrolls inside itself and fades its clipped edge.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  const chips = page.getByRole('radiogroup', { name: 'Campaign status' })
  // Five chips with their counts do not fit in 358 px: the strip must say there is more.
  expect(await chips.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
  await expect(chips).toHaveAttribute('data-scrollable', 'true')
  expect(await chips.evaluate((el) => getComputedStyle(el).maskImage)).toContain('gradient')
  // The last chip can be reached and chosen.
  const last = chips.getByRole('radio').last()
  await last.click()
  await expect(last).toHaveAttribute('aria-checked', 'true')
  await expect(last).toBeInViewport()
})

test('the landing mobile menu closes when the page scrolls away and on Escape', async ({ page }) => {
  await page.goto('/')
  const toggle = page.getByRole('button', { name: 'Open menu' })
  await toggle.click()
  const menu = page.locator('#mobile-menu')
  await expect(menu).toBeVisible()
  await page.mouse.wheel(0, 600)
  await expect(menu).toBeHidden()
  await page.getByRole('button', { name: 'Open menu' }).click()
  await expect(menu).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
})

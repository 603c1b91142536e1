// Full-page screenshots of every page at desktop and phone widths, for review and docs: the public
// pages, then the signed-in ones as the demo customer (dashboard, settings, billing, the
// notifications panel) and a new user's onboarding wizard.
// Usage: WEB_URL=http://127.0.0.1:54323 OUT_DIR=docs/screenshots npx tsx scripts/screenshots.ts [path ...]
// (public paths only when paths are given; the signed-in pages need the dev stack's seeded demo).
import type { BrowserContext } from 'playwright-core'
import { DEMO_CUSTOMER, launchBrowser, runMain, SIZES, shoot, signIn, urlOf } from './lib/screenshot-kit.ts'

const pages =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : [
        '/',
        '/fb-offer',
        '/google-ads',
        '/login',
        '/login?checkout=true',
        '/reset-password',
        '/cancel',
        '/success',
      ]
const publicOnly = process.argv.slice(2).length > 0

const slug = (path: string) =>
  path === '/' ? 'landing' : path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-')

/** The demo customer's pages, then a brand-new user's onboarding wizard. */
async function signedInPages(context: BrowserContext, size: string): Promise<void> {
  const page = await context.newPage()
  await signIn(page, DEMO_CUSTOMER)
  // The dashboard's own shots come from dashboard-screenshots.ts (dashboard-campaigns-*.png).
  for (const path of ['/settings', '/billing']) {
    await page.goto(urlOf(path))
    await shoot(page, path.slice(1), size)
  }
  await page.getByRole('tab', { name: 'Subscription' }).click()
  await shoot(page, 'billing-subscription', size)
  await page.getByRole('tab', { name: 'Payment History' }).click()
  await shoot(page, 'billing-history', size)
  await page.goto(urlOf('/settings'))
  await page.getByRole('button', { name: /^Notifications/ }).click()
  await page.getByRole('dialog', { name: 'Notifications' }).getByRole('listitem').first().waitFor()
  await shoot(page, 'notifications', size, false)
  await page.close()

  const fresh = await context.browser()?.newContext({ viewport: page.viewportSize() ?? undefined })
  if (!fresh) return
  const newcomer = await fresh.newPage()
  await newcomer.goto(urlOf('/login'))
  await newcomer.getByRole('button', { name: "Don't have an account? Sign up here" }).click()
  await newcomer.getByLabel('Email address').fill(`shots-${Date.now()}-${size}@example.com`)
  await newcomer.getByLabel('Password').fill('screenshot-password')
  await newcomer.getByRole('button', { name: 'Create Account' }).click()
  await newcomer.getByRole('button', { name: "Let's Get Started" }).click()
  await shoot(newcomer, 'onboarding-goals', size)
  await newcomer.getByText('Lead Generation').click()
  await newcomer.getByRole('button', { name: 'Continue' }).click()
  await shoot(newcomer, 'onboarding-plan', size)
  await fresh.close()
}

async function main() {
  const browser = await launchBrowser()
  try {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } })
      const page = await context.newPage()
      for (const path of pages) {
        await page.goto(urlOf(path))
        await shoot(page, slug(path), size.name)
      }
      if (!publicOnly) await signedInPages(context, size.name)
      await context.close()
    }
  } finally {
    await browser.close()
  }
}

runMain(main)

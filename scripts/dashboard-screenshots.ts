// Screenshots of the dashboard's tabs, wizards and detail views at desktop and phone widths, signed in
// as the demo customer, for review and docs/screenshots.
// Usage: WEB_URL=http://127.0.0.1:54323 OUT_DIR=docs/screenshots npx tsx scripts/dashboard-screenshots.ts [only-name ...]
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { DEMO_CUSTOMER, launchBrowser, outDir, runMain, SIZES, signIn, urlOf } from './lib/screenshot-kit.ts'

const account = {
  email: process.env.DEMO_EMAIL ?? DEMO_CUSTOMER.email,
  password: process.env.DEMO_PASSWORD ?? DEMO_CUSTOMER.password,
}
const only = new Set(process.argv.slice(2))

/** `as`: sign in as this seeded customer instead (the demo customer is at its account limit). */
type Shot = { name: string; fullPage?: boolean; as?: string; run: (page: Page) => Promise<void> }

/** A seeded customer with room for one more account, for the account wizard's steps. */
const customerWithRoom = 'maya@northwind.test'
const X_COOKIES = '[{"name":"auth_token","value":"abc123"},{"name":"ct0","value":"def456"}]'

const dialog = (page: Page) => page.getByRole('dialog').last()
const settle = (page: Page, ms = 600) => page.waitForTimeout(ms)

async function openTab(page: Page, tab: string) {
  await page.goto(urlOf(`/dashboard${tab === 'campaigns' ? '' : `?tab=${tab}`}`))
  await page.getByRole('tabpanel').waitFor()
  await page.waitForLoadState('networkidle')
  await settle(page)
}

async function next(page: Page) {
  await dialog(page).getByRole('button', { name: 'Next' }).click()
  await settle(page, 300)
}

async function openDmWizardSetup(page: Page) {
  await openTab(page, 'campaigns')
  await page.getByRole('button', { name: 'New Campaign' }).first().click()
  const d = dialog(page)
  await d.getByLabel('Campaign name').fill('Founders in Berlin')
  await d.getByLabel('Send from account').selectOption({ index: 1 })
}

async function openScrapingWizardSetup(page: Page) {
  await openTab(page, 'lead-scraping')
  await page.getByRole('button', { name: 'New Campaign' }).last().click()
  const d = dialog(page)
  await d.getByLabel('Campaign name').fill('Indie hackers')
  await d.getByLabel('Account').selectOption({ index: 1 })
}

/** The account wizard with X chosen as the platform. */
async function openAccountWizardWithX(page: Page) {
  await openTab(page, 'social-accounts')
  await page.getByRole('button', { name: 'Add Account' }).click()
  await dialog(page).getByText('Ready to Add Account').waitFor()
  await dialog(page)
    .getByRole('button', { name: /Twitter/ })
    .click()
}

/** The account wizard up to the Authentication step of an X account. */
async function openAccountWizardAuthentication(page: Page) {
  await openAccountWizardWithX(page)
  const d = dialog(page)
  await next(page)
  await d.getByLabel('Username').fill('maya_builds')
  await next(page)
  await d.getByLabel('Cookies (JSON)').fill(X_COOKIES)
}

const shots: Shot[] = [
  {
    name: 'modal-dm-wizard-setup',
    run: async (page) => {
      await openDmWizardSetup(page)
      await settle(page)
    },
  },
  {
    name: 'modal-scraping-wizard-setup',
    run: async (page) => {
      await openScrapingWizardSetup(page)
      await settle(page)
    },
  },
  {
    name: 'modal-scraping-wizard-review',
    run: async (page) => {
      await openScrapingWizardSetup(page)
      await next(page)
      await dialog(page).getByLabel('Username').fill('levelsio')
      await next(page)
      await next(page)
      await settle(page)
    },
  },
  {
    name: 'modal-add-account-platform',
    as: customerWithRoom,
    run: async (page) => {
      await openAccountWizardWithX(page)
      await settle(page)
    },
  },
  {
    name: 'modal-add-account-account',
    as: customerWithRoom,
    run: async (page) => {
      await openAccountWizardWithX(page)
      await next(page)
      await dialog(page).getByLabel('Username').fill('maya_builds')
      await settle(page)
    },
  },
  {
    name: 'modal-add-account-authentication',
    as: customerWithRoom,
    run: async (page) => {
      await openAccountWizardAuthentication(page)
      await settle(page)
    },
  },
  {
    name: 'modal-add-account-review',
    as: customerWithRoom,
    run: async (page) => {
      await openAccountWizardAuthentication(page)
      await next(page)
      await settle(page)
    },
  },
  { name: 'dashboard-campaigns', fullPage: true, run: (page) => openTab(page, 'campaigns') },
  { name: 'dashboard-leads', fullPage: true, run: (page) => openTab(page, 'leads') },
  { name: 'dashboard-social-accounts', fullPage: true, run: (page) => openTab(page, 'social-accounts') },
  { name: 'dashboard-lead-scraping', fullPage: true, run: (page) => openTab(page, 'lead-scraping') },
  {
    name: 'dashboard-mobile-menu',
    run: async (page) => {
      await openTab(page, 'campaigns')
      const menu = page.getByRole('button', { name: 'Open menu' })
      if (await menu.isVisible()) await menu.click()
      await settle(page)
    },
  },
  {
    name: 'modal-campaign-details-overview',
    run: async (page) => {
      await openTab(page, 'campaigns')
      await page.getByTestId('campaign-card').filter({ hasText: 'SaaS founders' }).click()
      await dialog(page).getByTestId('detail-Reply Rate').waitFor()
      await settle(page)
    },
  },
  {
    name: 'modal-campaign-details-messages',
    run: async (page) => {
      await openTab(page, 'campaigns')
      await page.getByTestId('campaign-card').filter({ hasText: 'SaaS founders' }).click()
      await dialog(page).getByRole('tab', { name: 'Messages' }).click()
      await settle(page, 1500)
    },
  },
  {
    name: 'modal-campaign-details-analytics',
    run: async (page) => {
      await openTab(page, 'campaigns')
      await page.getByTestId('campaign-card').filter({ hasText: 'SaaS founders' }).click()
      await dialog(page).getByRole('tab', { name: 'Analytics' }).click()
      await dialog(page).getByTestId('chart-per-day').waitFor()
      // The bars grow in; on a busy machine 1.5 s caught them before they were drawn.
      await dialog(page).locator('.recharts-bar-rectangle').first().waitFor()
      await settle(page, 3000)
    },
  },
  {
    name: 'modal-scraping-details-sources',
    run: async (page) => {
      await openTab(page, 'lead-scraping')
      await page.getByTestId('scraping-card').first().getByRole('button').first().click()
      await dialog(page).getByRole('tab', { name: 'Sources' }).click()
      await settle(page, 1000)
    },
  },
  {
    name: 'modal-scraping-details-analytics',
    run: async (page) => {
      await openTab(page, 'lead-scraping')
      await page.getByTestId('scraping-card').first().getByRole('button').first().click()
      await dialog(page).getByRole('tab', { name: 'Analytics' }).click()
      await dialog(page).getByTestId('chart-per-hour').waitFor()
      await settle(page, 1500)
    },
  },
  {
    name: 'modal-scraping-details-leads',
    run: async (page) => {
      await openTab(page, 'lead-scraping')
      await page.getByTestId('scraping-card').first().getByRole('button').first().click()
      await dialog(page).getByRole('tab', { name: 'Scraped Leads' }).click()
      await settle(page, 1000)
    },
  },
  {
    name: 'modal-dm-wizard-messages',
    run: async (page) => {
      await openTab(page, 'campaigns')
      await page.getByRole('button', { name: 'New Campaign' }).first().click()
      const d = dialog(page)
      await d.getByLabel('Campaign name').fill('Founders in Berlin')
      await d.getByLabel('Send from account').selectOption({ index: 1 })
      await next(page)
      await d.getByRole('button', { name: /SaaS founders on X/ }).click()
      await next(page)
      await d
        .getByLabel('Initial message 1')
        .fill('Hey {name}, saw your post about shipping weekly. How do you find your first users?')
      await settle(page)
    },
  },
  {
    name: 'modal-dm-wizard-schedule',
    run: async (page) => {
      await openTab(page, 'campaigns')
      await page.getByRole('button', { name: 'New Campaign' }).first().click()
      const d = dialog(page)
      await d.getByLabel('Campaign name').fill('Founders in Berlin')
      await d.getByLabel('Send from account').selectOption({ index: 1 })
      await next(page)
      await d.getByRole('button', { name: /SaaS founders on X/ }).click()
      await next(page)
      await d.getByLabel('Initial message 1').fill('Hey {name}, quick question about your launch.')
      await next(page)
      await d.getByTestId('days-off-preview').waitFor()
      await settle(page, 1000)
    },
  },
  {
    name: 'modal-dm-wizard-review',
    run: async (page) => {
      await openTab(page, 'campaigns')
      await page.getByRole('button', { name: 'New Campaign' }).first().click()
      const d = dialog(page)
      await d.getByLabel('Campaign name').fill('Founders in Berlin')
      await d.getByLabel('Send from account').selectOption({ index: 1 })
      await next(page)
      await d.getByRole('button', { name: /SaaS founders on X/ }).click()
      await next(page)
      await d.getByLabel('Initial message 1').fill('Hey {name}, quick question about your launch.')
      await next(page)
      await next(page)
      await settle(page)
    },
  },
  {
    name: 'modal-scraping-wizard-source',
    run: async (page) => {
      await openTab(page, 'lead-scraping')
      await page.getByRole('button', { name: 'New Campaign' }).last().click()
      const d = dialog(page)
      await d.getByLabel('Campaign name').fill('Indie hackers')
      await d.getByLabel('Account').selectOption({ index: 1 })
      await next(page)
      await d.getByRole('button', { name: 'Hashtag posts' }).click()
      await d.getByLabel('Hashtag').fill('buildinpublic')
      await settle(page)
    },
  },
  {
    name: 'modal-scraping-wizard-filters',
    run: async (page) => {
      await openTab(page, 'lead-scraping')
      await page.getByRole('button', { name: 'New Campaign' }).last().click()
      const d = dialog(page)
      await d.getByLabel('Campaign name').fill('Indie hackers')
      await d.getByLabel('Account').selectOption({ index: 1 })
      await next(page)
      await d.getByLabel('Username').fill('levelsio')
      await next(page)
      await settle(page)
    },
  },
  {
    name: 'modal-add-account',
    run: async (page) => {
      await openTab(page, 'social-accounts')
      await page.getByRole('button', { name: 'Add Account' }).click()
      await dialog(page)
        .getByText(/Account Limit Reached|Ready to Add Account/)
        .waitFor()
      await settle(page)
    },
  },
  {
    name: 'modal-campaign-details-leads',
    run: async (page) => {
      await openTab(page, 'campaigns')
      await page.getByTestId('campaign-card').filter({ hasText: 'SaaS founders' }).click()
      await dialog(page).getByRole('tab', { name: 'Leads' }).click()
      await settle(page, 1500)
    },
  },
  {
    name: 'modal-scraping-details-overview',
    run: async (page) => {
      await openTab(page, 'lead-scraping')
      await page.getByTestId('scraping-card').first().getByRole('button').first().click()
      await settle(page, 1500)
    },
  },
  {
    name: 'modal-dm-wizard-source',
    run: async (page) => {
      await openTab(page, 'campaigns')
      await page.getByRole('button', { name: 'New Campaign' }).first().click()
      const d = dialog(page)
      await d.getByLabel('Campaign name').fill('Founders in Berlin')
      await d.getByLabel('Send from account').selectOption({ index: 1 })
      await next(page)
      await d.getByRole('button', { name: /SaaS founders on X/ }).click()
      await settle(page)
    },
  },
  {
    name: 'confirm-delete-account',
    run: async (page) => {
      await openTab(page, 'social-accounts')
      await page
        .getByTestId('account-card')
        .first()
        .getByRole('button', { name: /^Delete/ })
        .click()
      await settle(page)
    },
  },
]

async function main() {
  const browser = await launchBrowser()
  try {
    for (const size of SIZES) {
      const pages = new Map<string, Page>()
      for (const shot of shots) {
        if (only.size > 0 && !only.has(shot.name)) continue
        const as = shot.as ?? account.email
        try {
          let page = pages.get(as)
          if (!page) {
            const context = await browser.newContext({ viewport: { width: size.width, height: size.height } })
            page = await context.newPage()
            await signIn(page, { email: as, password: account.password })
            pages.set(as, page)
          }
          await shot.run(page)
          const file = join(outDir, `${shot.name}-${size.name}.png`)
          await page.screenshot({ path: file, fullPage: shot.fullPage ?? false })
          console.log(file)
        } catch (error) {
          console.error(`${shot.name} (${size.name}) failed:`, error instanceof Error ? error.message : error)
          process.exitCode = 1
        }
      }
      for (const page of pages.values()) await page.context().close()
    }
  } finally {
    await browser.close()
  }
}

runMain(main)

// Screenshots of every admin tab at 1280 and 390 pixels into docs/screenshots/, signed in as the
// seeded operator. Run against a stack with the demo data (and a runner, for Server Processes):
//   WEB_URL=http://127.0.0.1:54323 npx tsx scripts/admin-screenshots.ts
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'

const base = process.env.WEB_URL ?? 'http://127.0.0.1:54323'
const out = join(import.meta.dirname, '..', 'docs', 'screenshots')
const TABS = ['overview', 'processes', 'logs', 'queues', 'retries', 'users', 'campaigns', 'accounts']
const WIDTHS = [1280, 390]

async function settle(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor()
  // every tab shows a spinner until its first answer
  await page.waitForFunction(
    () => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length === 0,
  )
  await page.waitForTimeout(500)
}

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true })
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  })
  const login = await browser.newContext()
  const page = await login.newPage()
  await page.goto(`${base}/login`)
  await page.getByLabel('Email address').fill('admin@reachflow.test')
  await page.getByLabel('Password').fill('admin-password')
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await page.waitForURL(/\/dashboard/)
  const storageState = await login.storageState()
  await login.close()

  for (const width of WIDTHS) {
    const context = await browser.newContext({
      storageState,
      viewport: { width, height: width > 600 ? 900 : 844 },
    })
    const tab = await context.newPage()
    for (const name of TABS) {
      await tab.goto(`${base}/admin${name === 'overview' ? '' : `?tab=${name}`}`)
      await settle(tab)
      await tab.screenshot({ path: join(out, `admin-${name}-${width}.png`), fullPage: true })
    }
    // One drawer: Monitor on the demo's running campaign.
    await tab.goto(`${base}/admin?tab=campaigns`)
    await settle(tab)
    await tab.getByRole('button', { name: 'Monitor SaaS founders outreach' }).click()
    await tab.getByRole('dialog').getByText('Recent messages').waitFor()
    await tab.waitForTimeout(500)
    await tab.screenshot({ path: join(out, `admin-campaign-monitor-${width}.png`) })
    await context.close()
  }
  await browser.close()
  console.log(`Screenshots in ${out}`)
}

await main()

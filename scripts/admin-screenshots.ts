// Screenshots of every admin tab at 1280 and 390 pixels into docs/screenshots/, signed in as the
// seeded operator. Run against a stack with the demo data (and a runner, for Server Processes):
//   WEB_URL=http://127.0.0.1:54323 npx tsx scripts/admin-screenshots.ts
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { DEMO_ADMIN, launchBrowser, outDir, runMain, SIZES, signIn, urlOf } from './lib/screenshot-kit.ts'

const TABS = ['overview', 'processes', 'logs', 'queues', 'retries', 'users', 'campaigns', 'accounts']

async function settle(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor()
  // every tab shows a spinner until its first answer
  await page.waitForFunction(
    () => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length === 0,
  )
  await page.waitForTimeout(500)
}

async function main(): Promise<void> {
  const browser = await launchBrowser()
  const login = await browser.newContext()
  const page = await login.newPage()
  await signIn(page, DEMO_ADMIN)
  const storageState = await login.storageState()
  await login.close()

  for (const { width, height } of SIZES) {
    const context = await browser.newContext({ storageState, viewport: { width, height } })
    const tab = await context.newPage()
    for (const name of TABS) {
      await tab.goto(urlOf(`/admin${name === 'overview' ? '' : `?tab=${name}`}`))
      await settle(tab)
      await tab.screenshot({ path: join(outDir, `admin-${name}-${width}.png`), fullPage: true })
    }
    // One drawer: Monitor on the demo's running campaign.
    await tab.goto(urlOf('/admin?tab=campaigns'))
    await settle(tab)
    await tab.getByRole('button', { name: 'Monitor SaaS founders outreach' }).click()
    await tab.getByRole('dialog').getByText('Recent messages').waitFor()
    await tab.waitForTimeout(500)
    await tab.screenshot({ path: join(outDir, `admin-campaign-monitor-${width}.png`) })
    await context.close()
  }
  await browser.close()
  console.log(`Screenshots in ${outDir}`)
}

runMain(main)

// What every screenshot script shares: Debian's Chromium, the two review widths, signing in
// through the real login form, and one place files are written and named.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'

export const webUrl = process.env.WEB_URL ?? 'http://127.0.0.1:54323'
export const outDir = process.env.OUT_DIR ?? join(import.meta.dirname, '..', '..', 'docs', 'screenshots')

/** The widths every page is reviewed at (1280 and 390 pixels). */
export const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const

export type Size = (typeof SIZES)[number]

export const DEMO_CUSTOMER = { email: 'demo@reachflow.test', password: 'demo-password' }
export const DEMO_ADMIN = { email: 'admin@reachflow.test', password: 'admin-password' }

export const urlOf = (path: string) => new URL(path, webUrl).toString()

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(outDir, { recursive: true })
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  })
}

/** Signs in through /login and waits for the dashboard. */
export async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto(urlOf('/login'))
  await page.getByLabel('Email address').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await page.waitForURL(/\/dashboard/)
}

/** Writes `<name>-<size>.png` (size: desktop/mobile, or a width) after the page has settled. */
export async function shoot(page: Page, name: string, size: string, fullPage = true): Promise<string> {
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(300)
  const file = join(outDir, `${name}-${size}.png`)
  await page.screenshot({ path: file, fullPage })
  console.log(file)
  return file
}

/** Runs a script's main, exiting non-zero with the error on failure. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}

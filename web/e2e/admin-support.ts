// Shared steps of the admin end-to-end tests: the seeded operator signed in once per file (Auth
// limits sign-ins per address, so tests reuse the saved session), and the database for what the
// page cannot show directly (whether a runner is up, a job's state).
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, expect, type Page } from '@playwright/test'
import pg from 'pg'

export const ADMIN = { email: 'admin@reachflow.test', password: 'admin-password' }

/** Where this test process keeps the operator's session (one sign-in per worker). */
export const statePath = join(tmpdir(), `reachflow-admin-e2e-${process.pid}.json`)

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email address').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard/)
}

/** A page signed in as the operator, from the session saved at `statePath` (made on first use). */
export async function adminPage(browser: Browser, viewport = { width: 1280, height: 800 }) {
  if (!existsSync(statePath)) {
    const context = await browser.newContext()
    const page = await context.newPage()
    await signIn(page, ADMIN.email, ADMIN.password)
    await context.storageState({ path: statePath })
    await context.close()
  }
  const context = await browser.newContext({ storageState: statePath, viewport })
  return { context, page: await context.newPage() }
}

/** Opens /admin on a tab and waits for the page. */
export async function openTab(page: Page, tab: string, label: RegExp | string): Promise<void> {
  await page.goto(tab === 'overview' ? '/admin' : `/admin?tab=${tab}`)
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible()
  await expect(page.getByRole('tab', { name: label })).toHaveAttribute('aria-selected', 'true')
}

let pool: pg.Pool | undefined
export function db(): pg.Pool {
  const url = process.env.SUPABASE_DB_URL
  if (!url) throw new Error('SUPABASE_DB_URL is not set: run the end-to-end tests through `npm test`.')
  pool ??= new pg.Pool({ connectionString: url, max: 2 })
  return pool
}

/** Closes the pool (spec files share a worker, so the next one opens a fresh pool). */
export async function closeDb(): Promise<void> {
  const open = pool
  pool = undefined
  await open?.end()
}

/** The runner processes that beat in the last 30 s (the runner itself is on branch `runner`). */
export async function liveRunners(): Promise<{ runner_id: string; pid: number }[]> {
  const { rows } = await db().query<{ runner_id: string; pid: number }>(
    `select runner_id, pid from public.runner_heartbeats
      where status = 'running' and last_seen_at > now() - interval '30 seconds' order by runner_id`,
  )
  return rows
}

// Shared steps of the admin end-to-end tests: the seeded operator signed in once per file (Auth
// limits sign-ins per address, so tests reuse the saved session), and the database for what the
// page cannot show directly (whether a runner is up, a job's state).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createWriteStream, existsSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, expect, type Page } from '@playwright/test'
import pg from 'pg'
import { encryptSecret, keyringFromEnv } from '../../runner/src/crypto.ts'
import { TEST_ADMISSION_ENV } from '../../runner/test/helpers/process.ts'
import { stackConfig } from '../../stack/src/config.ts'
import { xSandboxAccount } from './support'

export const ADMIN = { email: 'admin@reachflow.test', password: 'admin-password' }

/** Where this test process keeps the operator's session (one sign-in per worker). */
export const statePath = join(tmpdir(), `reachflow-admin-e2e-${process.pid}.json`)

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email address').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
  // Operators land on the admin dashboard.
  await expect(page).toHaveURL(/\/admin/)
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

/** On the Platform health tab: the account becomes one the canary checks. */
export async function chooseCanaryAccount(page: Page, username: string): Promise<void> {
  const canary = page.getByTestId('canary-accounts')
  await canary.getByRole('searchbox').fill(username)
  await canary.getByRole('button', { name: `Choose @${username} for the canary` }).click()
  await expect(canary.getByRole('list').first()).toContainText(`@${username}`)
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

/** No site change open and no canary account chosen: sending on every platform as normal. */
export async function clearSiteChanges(): Promise<void> {
  await db().query('delete from public.platform_action_pauses')
  await db().query(
    `update public.platform_incidents set status = 'resolved', resolved_at = now(), resolution = 'operator' where status = 'open'`,
  )
}

/** A new customer who never signs in (its password is empty), for accounts the page does not show. */
export async function newCustomer(): Promise<string> {
  const userId = randomUUID()
  await db().query(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data,
                             created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, '', now(), '{"provider": "email"}', '{}', now(), now())`,
    [userId, `canary-${userId.slice(0, 8)}@example.com`],
  )
  return userId
}

/**
 * The customer's X account signed in to the X sandbox (a fresh sandbox account made with
 * `sandbox`; credentials sealed as the api does), on a paid plan, past warm-up.
 */
export async function connectXAccount(
  userId: string,
  sandbox: Record<string, unknown> = {},
): Promise<{ username: string; accountId: string }> {
  const x = await xSandboxAccount(sandbox)
  await db().query(
    `insert into public.subscriptions (user_id, status, plan_type, accounts_purchased, stripe_subscription_id)
     values ($1, 'active', 'growth', 3, $2)`,
    [userId, `sub_e2e_${userId.slice(0, 12)}_${Date.now()}`],
  )
  const { rows } = await db().query<{ id: string }>(
    `insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase)
     select $1, p.id, $2, 'active', 5 from public.platforms p where p.name = 'twitter' returning id`,
    [userId, x.username],
  )
  const accountId = rows[0]?.id ?? ''
  const keyring = keyringFromEnv()
  await db().query(
    'insert into public.social_account_credentials (account_id, key_id, ciphertext) values ($1, $2, $3)',
    [
      accountId,
      keyring.currentKeyId,
      encryptSecret(
        JSON.stringify({ v: 1, platform: 'twitter', cookies: x.cookies, chatPasscode: x.passcode }),
        keyring,
      ),
    ],
  )
  return { username: x.username, accountId }
}

/** The runner processes that beat in the last 30 s (the runner itself is on branch `runner`). */
export async function liveRunners(): Promise<{ runner_id: string; pid: number }[]> {
  const { rows } = await db().query<{ runner_id: string; pid: number }>(
    `select runner_id, pid from public.runner_heartbeats
      where status = 'running' and last_seen_at > now() - interval '30 seconds' order by started_at`,
  )
  return rows
}

const repoRoot = join(import.meta.dirname, '..', '..')

export interface RunnerHandle {
  stop: () => Promise<void>
}

/**
 * The runner as `npm start` runs it, for a test instance (which has no runner service): started
 * with the instance's settings and started again whenever it exits, as the stack's supervisor
 * does (a restart command makes it exit with 75). Its output goes to the instance's logs folder.
 */
export function startSupervisedRunner(env: Record<string, string> = {}): RunnerHandle {
  const logDir = stackConfig().logDir
  mkdirSync(logDir, { recursive: true })
  const log = createWriteStream(join(logDir, 'admin-e2e-runner.log'), { flags: 'a' })
  let child: ChildProcess | undefined
  let stopping = false
  const launch = () => {
    child = spawn(
      join(repoRoot, 'node_modules', '.bin', 'tsx'),
      [join(repoRoot, 'runner', 'src', 'main.ts')],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          RUNNER_PACING_FACTOR: '0.05',
          RUNNER_TYPING_FACTOR: '0',
          ...TEST_ADMISSION_ENV,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    )
    child.stdout?.pipe(log, { end: false })
    child.stderr?.pipe(log, { end: false })
    child.on('exit', () => {
      if (!stopping) setTimeout(launch, 500)
    })
  }
  launch()
  return {
    stop: async () => {
      stopping = true
      const running = child
      if (!running?.pid || running.exitCode !== null) return
      const exited = new Promise((resolve) => running.once('exit', resolve))
      process.kill(-running.pid, 'SIGTERM')
      const killed = setTimeout(() => running.pid && process.kill(-running.pid, 'SIGKILL'), 15_000)
      await exited
      clearTimeout(killed)
      log.end()
    },
  }
}

// The e2e suite's own runner: the test stack starts none (runner tests start the ones they need),
// so the outreach flow starts the real runner process with the stack's environment and short
// polling and pacing, the way `npm start` runs it with compressed gaps.
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from '@playwright/test'
import pg from 'pg'
import { TEST_ADMISSION_ENV } from '../../runner/test/helpers/process.ts'

const repoRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..')

export class E2eRunner {
  private readonly output: string[] = []
  private constructor(private readonly child: ChildProcess) {
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString())
      if (this.output.length > 500) this.output.splice(0, 250)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
  }

  static start(): E2eRunner {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'runner', 'src', 'main.ts')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        RUNNER_POLL_MS: '500',
        RUNNER_HEARTBEAT_MS: '1000',
        RUNNER_TYPING_FACTOR: '0',
        RUNNER_PACING_FACTOR: '0',
        ...TEST_ADMISSION_ENV,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    return new E2eRunner(child)
  }

  tail(): string {
    return this.output.join('').split('\n').slice(-40).join('\n')
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    const exited = new Promise((resolve) => this.child.once('exit', resolve))
    this.child.kill('SIGTERM')
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000)
    await exited
    clearTimeout(timer)
  }
}

/**
 * Runs what pg_cron runs every minute (`internal.enqueue_due_work()`), and queues the account's
 * inbox sync, which the scheduler gives each account once a quarter hour: the flow should not wait
 * for the clock.
 */
export async function runSchedulerNow(accountId?: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    await client.query('select internal.enqueue_due_work()')
    if (accountId)
      await client.query(
        `select internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', $1::uuid), 'inbox:' || $1, now())`,
        [accountId],
      )
  } finally {
    await client.end()
  }
}

/** Test set-up, not the flow under test: the new customer has finished onboarding and the setup modal. */
export async function completeOnboarding(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    await client.query(
      `update public.user_profiles set onboarding_completed = true, post_onboarding = true
        where id = (select id from auth.users where email = $1)`,
      [email],
    )
  } finally {
    await client.end()
  }
}

export type Lead = { id: string; username: string; name: string }

/**
 * Test set-up, not the flow under test: a running DM campaign from the account to these leads
 * (open around the clock; one follow-up `followUpDays` later when given), sending at most
 * `dailyLimit` a day.
 */
export async function runningCampaign(
  accountId: string,
  leads: Lead[],
  {
    dailyLimit = 50,
    name = 'Platforms 2026',
    followUpDays,
  }: { dailyLimit?: number; name?: string; followUpDays?: number } = {},
): Promise<string> {
  const sequences = {
    messages: ['Hi {name}, a quick question about what you make?'],
    followUpEnabled: followUpDays !== undefined,
    followUpMessages: followUpDays !== undefined ? ['Just bumping this, {name}.'] : [],
    ...(followUpDays !== undefined && { followUpDays }),
  }
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ id: string }>(
      `with c as (
         insert into public.campaigns (user_id, account_id, name, sequences, schedule, daily_message_limit, status)
         select a.user_id, a.id, $3, $5::jsonb,
                '{"timezone": "UTC", "timeFrom": "00:00", "timeTo": "23:59", "randomDaysOff": false,
                  "activeDays": ["monday","tuesday","wednesday","thursday","friday","saturday","sunday"]}',
                $4, 'running'
           from public.social_accounts a where a.id = $1
         returning id),
       l as (
         insert into public.campaign_leads (campaign_id, username, profile_data)
         select c.id, l.username, jsonb_build_object('platform_id', l.id, 'display_name', l.name)
           from c, jsonb_to_recordset($2::jsonb) as l (id text, username text, name text))
       select id from c`,
      [accountId, JSON.stringify(leads), name, dailyLimit, JSON.stringify(sequences)],
    )
    if (!rows[0]) throw new Error(`no social account ${accountId}`)
    return rows[0].id
  } finally {
    await client.end()
  }
}

export async function accountIdOf(username: string): Promise<string> {
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ id: string }>(
      'select id from public.social_accounts where username = $1',
      [username],
    )
    if (!rows[0]) throw new Error(`no social account ${username}`)
    return rows[0].id
  } finally {
    await client.end()
  }
}

/**
 * One runner for the tests of the file (or describe block) this is called in, stopped after them;
 * its last output is printed when a test fails.
 */
export function runnerForTheseTests(): void {
  let runner: E2eRunner
  test.beforeAll(() => {
    runner = E2eRunner.start()
  })
  test.afterAll(async () => {
    await runner.stop()
  })
  test.afterEach(async ({ page: _page }, info) => {
    if (info.status !== info.expectedStatus) console.log(`runner output:\n${runner.tail()}`)
  })
}

// The platform packs a runner uses: its code defaults are JSON that fits itself and are registered
// at start; a pack an operator publishes is in use within one poll; one that does not fit this
// runner's facts is refused (the code default stays, an error is logged); a rollback returns to
// the code default. Against the test database as the runner's role.

import { packIssues, platformUrl } from '@reachflow/domain'
import { afterAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../src/config.ts'
import { createDb } from '../src/db.ts'
import { Logger } from '../src/log.ts'
import { CODE_DEFAULT_FACTS } from '../src/packs/code-defaults.ts'
import { PlatformPacks } from '../src/packs/registry.ts'
import { adminDb, closeAdminDb, env } from './helpers/fixtures.ts'

const db = createDb(env('RUNNER_DATABASE_URL'), 2)
afterAll(async () => {
  await db.end()
  await closeAdminDb()
})

/** A pack an operator tried on the canary (passed) and published, as the admin function does it. */
async function publish(facts: Record<string, unknown>): Promise<string> {
  const admin = adminDb()
  const pack = await admin.query<{ id: string }>(
    `insert into public.platform_packs (platform, version, facts, source) values ('instagram', $1, $2, 'operator') returning id`,
    [facts.version, facts],
  )
  const id = pack.rows[0]?.id ?? ''
  await admin.query(
    `insert into public.platform_canary_runs (platform, trigger, pack_id, status) values ('instagram', 'try', $1, 'passed')`,
    [id],
  )
  const outcome = await admin.query<{ outcome: string }>(
    `select public.admin_publish_pack('instagram', $1, null) as outcome`,
    [id],
  )
  expect(outcome.rows[0]?.outcome).toBe('published')
  return id
}

async function until(check: () => boolean, ms: number): Promise<number> {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return Date.now() - started
}

describe('platform packs', () => {
  it('the code defaults are JSON packs that fit themselves, with a version each', () => {
    for (const facts of Object.values(CODE_DEFAULT_FACTS)) {
      const json = JSON.parse(JSON.stringify(facts))
      expect(json).toEqual(facts)
      expect(packIssues(json, facts)).toEqual([])
      expect(facts.version).toMatch(/\S/)
    }
  })

  it('a pack path that leaves the platform is refused, and the runner never builds a URL off the site', () => {
    for (const home of ['.evil.example/steal', '@evil.example/steal', '//evil.example']) {
      const facts = structuredClone(CODE_DEFAULT_FACTS.twitter)
      facts.paths = { ...(facts.paths as Record<string, string>), home }
      expect(packIssues(facts, CODE_DEFAULT_FACTS.twitter)).toEqual([
        {
          path: 'paths.home',
          message: "paths.home must be a path on the platform's own site, starting with a single /",
        },
      ])
      // were such a path to reach a session anyway, it is not joined to the site's address
      expect(() => platformUrl('https://x.com', home)).toThrow(/is not on https:\/\/x\.com/)
    }
    expect(platformUrl('https://x.com', '/i/chat/1-2')).toBe('https://x.com/i/chat/1-2')
  })

  it('a published pack is in use within one poll; a misfit is refused; a rollback returns to the default', async () => {
    // the default poll: a publication is in use within a minute on every runner
    expect(configFromEnv({ ...process.env, RUNNER_PACK_POLL_MS: undefined }).packPollMs).toBeLessThanOrEqual(
      60_000,
    )
    const log = new Logger(db, { test: 'packs' }, 'info', false)
    const packs = new PlatformPacks({ db, log, defaults: CODE_DEFAULT_FACTS, pollMs: 500 })
    const made: string[] = []
    try {
      await packs.start()
      const registered = await adminDb().query(
        `select version from public.platform_packs where source = 'code' and platform = 'instagram' and version = $1`,
        [CODE_DEFAULT_FACTS.instagram.version],
      )
      expect(registered.rowCount).toBe(1)
      expect(packs.current('instagram')).toMatchObject({ source: 'code' })

      const edited = structuredClone(CODE_DEFAULT_FACTS.instagram) as Record<string, unknown> & {
        version: string
      }
      edited.version = `runner-test-${Date.now()}`
      ;(edited.selectors as Record<string, unknown>).composer = 'div[role="textbox"][aria-label="Message…"]'
      made.push(await publish(edited))
      const waited = await until(() => packs.current('instagram').version === edited.version, 10_000)
      expect(waited).toBeLessThan(10_000)
      expect(packs.current('instagram')).toMatchObject({ source: 'published', facts: edited })

      const misfit = {
        ...edited,
        version: `runner-test-misfit-${Date.now()}`,
        selectors: { composer: 'div' },
      }
      made.push(await publish(misfit))
      await until(() => packs.current('instagram').source === 'code', 10_000)
      const refused = await adminDb().query(
        `select message from public.system_logs where level = 'error' and service = 'instagram' and message like $1`,
        [`Platform pack ${misfit.version} does not fit this runner's facts%`],
      )
      expect(refused.rowCount).toBe(1)

      // roll back from the misfit: the pack before it; again: the code default before that
      await adminDb().query(`select public.admin_rollback_pack('instagram', null)`)
      await until(() => packs.current('instagram').version === edited.version, 10_000)
      await adminDb().query(`select public.admin_rollback_pack('instagram', null)`)
      await until(() => packs.current('instagram').source === 'code', 10_000)
      const view = await adminDb().query<{ to: unknown }>(
        `select public.admin_platform_pack('instagram') -> 'rollbackTo' as to`,
      )
      expect(view.rows[0]?.to).toBeNull()
    } finally {
      await packs.stop()
      await adminDb().query(
        `delete from public.platform_pack_publications where pack_id = any($1) or platform = 'instagram'`,
        [made],
      )
      await adminDb().query('delete from public.platform_packs where id = any($1)', [made])
    }
  })
})

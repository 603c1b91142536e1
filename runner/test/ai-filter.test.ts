// AI lead filtering of a scraped page against the test stack's AI sandbox, as the runner's role:
// leads scoring under the campaign's minimum are kept as filtered with the score and reason,
// leads the AI could not score are kept unscored (never dropped), a hanging endpoint stops being
// asked after two failures, and rule-filtered or already stored leads are not scored at all.
import { randomUUID } from 'node:crypto'
import { AI_FAILURE_TEXT, type AiConfig, aiConfigFrom } from '@reachflow/ai'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { scoreRows } from '../src/scraping/ai-filter.ts'
import { closeAdminDb, createCustomer, env } from './helpers/fixtures.ts'

const runnerDb = new pg.Pool({ connectionString: env('RUNNER_DATABASE_URL'), max: 2 })
afterAll(async () => {
  await runnerDb.end()
  await closeAdminDb()
})

function ai(overrides: Partial<AiConfig> = {}): AiConfig {
  const config = aiConfigFrom((name) => process.env[name])
  if (!config) throw new Error('AI_BASE_URL is not set: run through `npm test`')
  // an answering endpoint gets the test's time: a loaded machine can take more than a second to
  // answer (a 500 ms limit failed that way in admin-request.test.ts); only hangs need a short one
  return { ...config, timeoutMs: 20_000, maxRetryWaitMs: 0, ...overrides }
}

async function fault(mode: string, match: string, times = 1) {
  const response = await fetch(`${env('AI_SANDBOX_URL')}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode, match, times }),
  })
  if (response.status !== 201) throw new Error(`fault: ${response.status}`)
}

const row = (username: string, bio: string, filtered = false) => ({
  username,
  profile_data: { display_name: username, bio } as Record<string, unknown>,
  is_filtered: filtered,
  filter_reason: filtered ? 'No bio' : null,
})
const FILTER = { idealCustomer: 'SaaS founders building in public', minScore: 60 }

describe.concurrent('AI lead filtering', () => {
  it('keeps leads at or above the minimum, filters the rest with score and reason', async () => {
    const userId = await createCustomer()
    const tag = randomUUID().slice(0, 6)
    const out = await scoreRows(
      runnerDb,
      ai(),
      { workspaceId: userId, userId },
      FILTER,
      [
        row(`fit_${tag}`, 'Founder @ Acme | building SaaS in public'),
        row(`off_${tag}`, 'Dad, runner, coffee nerd.'),
        row(`rule_${tag}`, '', true),
        row(`old_${tag}`, 'Founder'),
      ],
      new Set([`old_${tag}`]),
    )
    expect(
      out.map((r) => [r.is_filtered, (r.profile_data.ai as { status?: string } | undefined)?.status]),
    ).toEqual([
      [false, 'scored'],
      [true, 'below_threshold'],
      [true, undefined],
      [false, undefined],
    ])
    expect(out[1]?.filter_reason).toMatch(/^AI score \d+ is below 60: Bio mentions none of/)
    expect((out[0]?.profile_data.ai as { score?: number } | undefined)?.score).toBeGreaterThanOrEqual(60)
  })

  it('keeps leads unscored on a malformed answer, and stops asking after two timeouts', async () => {
    const userId = await createCustomer()
    const tag = randomUUID().slice(0, 6)
    await fault('non_json', `bad_${tag}`)
    await fault('hang', `hang_${tag}`, 3)
    const rows = [
      row(`bad_${tag}`, 'Founder'),
      row(`hang_${tag}_1`, 'Founder'),
      row(`hang_${tag}_2`, 'Founder'),
      row(`hang_${tag}_3`, 'Founder'),
    ]
    // two hangs wait out the limit each; the malformed answer still has seconds to arrive
    const out = await scoreRows(
      runnerDb,
      ai({ timeoutMs: 4_000 }),
      { workspaceId: userId, userId },
      FILTER,
      rows,
      new Set(),
    )
    expect(out.every((r) => !r.is_filtered)).toBe(true)
    expect(out.map((r) => (r.profile_data.ai as { status: string; error: string }).error)).toEqual([
      `${AI_FAILURE_TEXT.malformed} (not JSON)`,
      AI_FAILURE_TEXT.timeout,
      AI_FAILURE_TEXT.timeout,
      AI_FAILURE_TEXT.timeout,
    ])
    // the third hanging lead was never sent: two timeouts stop the page's scoring
    const response = await fetch(`${env('AI_SANDBOX_URL')}/__sandbox/requests`)
    const { requests } = (await response.json()) as { requests: { body: string }[] }
    expect(requests.filter((r) => r.body.includes(`hang_${tag}`)).length).toBe(2)
  })

  it('without an endpoint every lead is kept unscored', async () => {
    const nobody = randomUUID()
    const booking = { workspaceId: nobody, userId: nobody }
    const out = await scoreRows(runnerDb, null, booking, FILTER, [row('a', 'Founder')], new Set())
    expect(out[0]?.is_filtered).toBe(false)
    expect(out[0]?.profile_data.ai).toEqual({ status: 'unscored', error: AI_FAILURE_TEXT.not_configured })
  })
})

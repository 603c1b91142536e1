// The pack editor's endpoints in-process against the test stack: validation names every problem's
// path (and refuses bodies that are not a pack), Try on canary stores the draft and queues a run,
// Publish waits for that run to pass, Roll back returns to what was in effect before. A code
// default of the test's own is registered (as a runner would) and removed afterwards.
import assert from 'node:assert/strict'
import { sql } from '../_shared/test-stack.ts'
import { newCanaryAccount, removeCanaryState } from './platform-test-helpers.ts'
import { call, handler, newAdmin } from './test-helpers.ts'

const DEFAULT = {
  version: 'deno-ig-1',
  paths: { inbox: '/direct/inbox/', thread: '/direct/t/{id}/' },
  selectors: {
    composer: 'div[role="textbox"]',
    cookieButtons: ['Decline optional cookies', 'Allow all cookies'],
  },
  signalTexts: [{ pattern: { source: 'please wait a few minutes', flags: 'i' }, code: '429' }],
  followersPageSize: 12,
}

async function withCodeDefault(run: () => Promise<void>): Promise<void> {
  const [row] = await sql<{ id: string }>(`select internal.register_code_pack('instagram', $1, $2) as id`, [
    DEFAULT.version,
    DEFAULT,
  ])
  try {
    await run()
  } finally {
    await sql(`delete from public.platform_pack_publications where platform = 'instagram'`)
    await sql(
      `delete from public.platform_packs where platform = 'instagram' and (id = $1 or version like 'deno-ig-%')`,
      [row?.id],
    )
  }
}

Deno.test("validate: the draft must have the code default's exact shape, each problem named by its path", async () => {
  const handle = handler()
  const admin = await newAdmin()
  await withCodeDefault(async () => {
    const good = await call(handle, '/platform-packs/instagram/validate', {
      token: admin.token,
      body: { facts: { ...DEFAULT, version: 'deno-ig-2' } },
    })
    assert.deepEqual(good, { status: 200, body: { valid: true, version: 'deno-ig-2', issues: [] } })

    const bad = await call<{ valid: boolean; issues: { path: string; message: string }[] }>(
      handle,
      '/platform-packs/instagram/validate',
      {
        token: admin.token,
        body: {
          facts: {
            version: 'deno-ig-3',
            paths: { inbox: '' },
            selectors: { composer: 'div', cookieButtons: [], extra: 'x' },
            signalTexts: [{ pattern: { source: '(unclosed', flags: 'i' }, code: '429' }],
            followersPageSize: 0,
          },
        },
      },
    )
    assert.equal(bad.status, 200)
    assert.equal(bad.body.valid, false)
    assert.deepEqual(
      bad.body.issues.map((i) => i.message),
      [
        'paths.inbox must be a non-empty string',
        'paths.thread is missing',
        'selectors.cookieButtons must not be empty',
        'selectors.extra is not a fact the runner knows (remove it)',
        bad.body.issues[4]?.message,
        'followersPageSize must be a whole number greater than 0',
      ],
    )
    assert.equal(bad.body.issues[4]?.path, 'signalTexts[0].pattern')
    assert.match(bad.body.issues[4]?.message ?? '', /^signalTexts\[0\]\.pattern is not a valid regex: /)

    const missing = await call(handle, '/platform-packs/instagram/validate', {
      token: admin.token,
      method: 'POST',
    })
    assert.deepEqual(missing, { status: 400, body: { error: 'Request body is required' } })
    const notObject = await call(handle, '/platform-packs/instagram/validate', {
      token: admin.token,
      body: { facts: ['not', 'a', 'pack'] },
    })
    assert.equal(notObject.status, 400)
    assert.equal(notObject.body.error, 'facts must be a JSON object')
    const unknownPlatform = await call(handle, '/platform-packs/linkedin/validate', {
      token: admin.token,
      body: { facts: DEFAULT },
    })
    assert.deepEqual(unknownPlatform, { status: 404, body: { error: 'Platform not found' } })
  })
})

Deno.test("try, publish, roll back: publishing needs the draft's canary run to have passed", async () => {
  const handle = handler()
  const admin = await newAdmin()
  await removeCanaryState('instagram')
  await withCodeDefault(async () => {
    const draft = {
      ...DEFAULT,
      version: 'deno-ig-4',
      selectors: { ...DEFAULT.selectors, composer: 'div[role="textbox"][aria-label="Message"]' },
    }
    const noCanary = await call(handle, '/platform-packs/instagram/try', {
      token: admin.token,
      body: { facts: draft },
    })
    assert.deepEqual(noCanary, {
      status: 422,
      body: { error: 'Choose an active canary account for Instagram first' },
    })

    const invalid = await call<{ error: string; issues: unknown[] }>(
      handle,
      '/platform-packs/instagram/try',
      {
        token: admin.token,
        body: { facts: { ...draft, followersPageSize: 'twelve' } },
      },
    )
    assert.equal(invalid.status, 422)
    assert.equal(
      invalid.body.error,
      "The pack does not fit Instagram's facts: followersPageSize must be a whole number greater than 0",
    )
    assert.equal(invalid.body.issues.length, 1)

    await newCanaryAccount('instagram')
    const tried = await call<{ packId: string; runId: string; version: string }>(
      handle,
      '/platform-packs/instagram/try',
      {
        token: admin.token,
        body: { facts: draft },
      },
    )
    assert.equal(tried.status, 202)
    assert.equal(tried.body.version, 'deno-ig-4')
    const run = await call(handle, `/canary-runs/${tried.body.runId}`, { token: admin.token })
    assert.equal(run.body.status, 'queued')
    assert.equal(run.body.trigger, 'try')

    const publish = () =>
      call(handle, '/platform-packs/instagram/publish', {
        token: admin.token,
        body: { packId: tried.body.packId },
      })
    assert.deepEqual(await publish(), {
      status: 409,
      body: { error: 'The canary is still trying this pack: publish it once the run has passed.' },
    })
    await sql(`update public.platform_canary_runs set status = 'failed' where id = $1`, [tried.body.runId])
    assert.deepEqual(await publish(), {
      status: 422,
      body: { error: 'This pack did not pass its canary run: fix it, try it again, then publish.' },
    })
    await sql(`update public.platform_canary_runs set status = 'passed' where id = $1`, [tried.body.runId])
    const published = await publish()
    assert.equal(published.status, 200)
    assert.deepEqual((published.body.effective as Record<string, unknown>).version, 'deno-ig-4')
    assert.deepEqual(await publish(), { status: 409, body: { error: 'This pack is already published.' } })

    const view = await call(handle, '/platform-packs/instagram', { token: admin.token })
    assert.deepEqual(view.body.rollbackTo, {
      publicationId: null,
      packId: null,
      source: 'code',
      version: 'deno-ig-1',
    })
    const back = await call(handle, '/platform-packs/instagram/rollback', {
      token: admin.token,
      method: 'POST',
    })
    assert.equal(back.status, 200)
    assert.equal((back.body.effective as Record<string, unknown>).source, 'code')
    assert.ok(
      (
        await sql(
          `select 1 from public.system_logs where message like 'Rolled Instagram back to the code default%'`,
        )
      ).length >= 1,
    )

    const unknown = await call(handle, '/platform-packs/instagram/publish', {
      token: admin.token,
      body: { packId: '00000000-0000-4000-8000-000000000000' },
    })
    assert.deepEqual(unknown, { status: 404, body: { error: 'Pack not found' } })
    const badId = await call(handle, '/platform-packs/instagram/publish', {
      token: admin.token,
      body: { packId: 'x' },
    })
    assert.equal(badId.status, 400)
  })
  await removeCanaryState('instagram')
})

Deno.test('a try that skipped a step publishes only with the operator naming what was not checked', async () => {
  const handle = handler()
  const admin = await newAdmin()
  await removeCanaryState('instagram')
  await withCodeDefault(async () => {
    await newCanaryAccount('instagram')
    const tried = await call<{ packId: string; runId: string }>(handle, '/platform-packs/instagram/try', {
      token: admin.token,
      body: { facts: { ...DEFAULT, version: 'deno-ig-5', followersPageSize: 24 } },
    })
    assert.equal(tried.status, 202)
    const ran = (step: string, label: string, status: string) => ({ step, label, status, ms: 5 })
    await sql(`update public.platform_canary_runs set status = 'passed', steps = $2::jsonb where id = $1`, [
      tried.body.runId,
      JSON.stringify([
        ran('session', 'Sign in', 'passed'),
        ran('inbox', 'Open the inbox', 'passed'),
        ran('thread', 'Open a known thread', 'skipped'),
        ran('profile', 'Open a profile', 'passed'),
        ran('search', 'One page of a search', 'passed'),
      ]),
    ])
    const publish = (unchecked?: string[]) =>
      call(handle, '/platform-packs/instagram/publish', {
        token: admin.token,
        body: { packId: tried.body.packId, ...(unchecked ? { unchecked } : {}) },
      })
    const refused = {
      status: 422,
      body: {
        error:
          'The canary try did not check "Open a known thread": publish only by confirming what was not checked.',
        unchecked: [{ step: 'thread', label: 'Open a known thread' }],
      },
    }
    assert.deepEqual(await publish(), refused)
    assert.deepEqual(
      await publish(['search']),
      refused,
      'a confirmation naming other steps is no confirmation',
    )

    const published = await publish(['thread'])
    assert.equal(published.status, 200)
    assert.equal((published.body.effective as Record<string, unknown>).version, 'deno-ig-5')
    assert.deepEqual((published.body.history as Record<string, unknown>[])[0]?.unchecked, ['thread'])
    const logged = await sql<{ message: string }>(
      `select message from public.system_logs where message like 'Published Instagram pack deno-ig-5%'`,
    )
    assert.deepEqual(
      logged.map((l) => l.message),
      [
        `Published Instagram pack deno-ig-5 without checking "Open a known thread" (confirmed) (by ${admin.email})`,
      ],
    )
  })
  await removeCanaryState('instagram')
})

Deno.test('nothing published: Roll back says so', async () => {
  const handle = handler()
  const admin = await newAdmin()
  await withCodeDefault(async () => {
    const answer = await call(handle, '/platform-packs/instagram/rollback', {
      token: admin.token,
      method: 'POST',
    })
    assert.deepEqual(answer, {
      status: 409,
      body: { error: 'Nothing was published: the code default is in use.' },
    })
  })
})

// platform.canary {runId}: one canary run (the scheduler's every few minutes, an operator's "Run
// now", the check after a publication, or "Try on canary" with a draft pack). Holding the account
// like any job (never two sessions on one account), it signs in with the run's facts and runs the
// read-only steps, timing each. A changed page in a run of the platform's own pack records a site
// change; a run that passes resolves the platform's incidents (internal.finish_canary_run). The
// canary never changes the account's status: its own jobs deal with the account.

import { type CanaryStepResult, packIssues } from '@reachflow/domain'
import { type CanaryInput, type CanaryStep, DEFAULT_STEPS, SkipStep } from '../canary/steps.ts'
import type { InternalRow } from '../db-rows.ts'
import { CODE_DEFAULT_FACTS, type PackFacts } from '../packs/code-defaults.ts'
import type { PackInUse } from '../packs/registry.ts'
import type { AccountPlatform } from '../platforms/names.ts'
import { OperationTimeoutError, StopSignalError } from '../platforms/types.ts'
import type { AccountHandle } from '../sessions/manager.ts'
import { type AccountRow, loadAccount } from '../sessions/open.ts'
import { isSiteChange, recordSiteChange } from '../site-change/record.ts'
import type { JobContext } from './context.ts'
import type { JobData } from './queues.ts'

type StartedRun = InternalRow<
  'start_canary_run',
  {
    platform: AccountPlatform
    account_id: string | null
    trigger: 'schedule' | 'try' | 'publish' | 'manual' | 'confirm'
    pack_id: string | null
    pack_facts: PackFacts | null
    pack_version: string | null
    thread_id: string | null
    profile_username: string | null
  }
>

/** The run as started, with its id (a changed page it meets is recorded as this run's sighting). */
type Run = StartedRun & { id: string }

/** One step as the run records it: the shape the admin tab reads back (the domain's). */
export type StepResult = CanaryStepResult

export type CanaryStatus = 'passed' | 'failed' | 'error'

export interface CanaryResult {
  status: CanaryStatus | 'gone'
  steps?: StepResult[]
  note?: string
}

interface Outcome {
  status: CanaryStatus
  steps: StepResult[]
  error: string | null
  /** The version of the facts the run checked (the runner's pack in use when it is no draft). */
  packVersion?: string
}

const elapsed = (since: number) => Math.round(performance.now() - since)

export async function platformCanary(
  ctx: JobContext,
  data: JobData['platform.canary'],
  steps: CanaryStep[] = DEFAULT_STEPS,
): Promise<CanaryResult> {
  const taken = (await ctx.db.query<StartedRun>('select * from internal.start_canary_run($1)', [data.runId]))
    .rows[0]
  if (!taken) return { status: 'gone', note: 'The canary run is no longer waiting.' }
  const run: Run = { ...taken, id: data.runId }
  // The check after a publication is queued the moment the operator publishes, usually before this
  // runner's next poll of the publications: it must check the pack just published, not the one it
  // replaces (that one fails on the changed site, and the pause outlives the operator's fix).
  if (run.trigger === 'publish') await ctx.packs.poll?.()
  const started = performance.now()
  const finish = async (outcome: Outcome, pack: PackInUse | null): Promise<CanaryResult> => {
    await ctx.db.query('select internal.finish_canary_run($1, $2, $3, $4, $5, $6)', [
      data.runId,
      outcome.status,
      JSON.stringify(outcome.steps),
      outcome.packVersion ?? pack?.version ?? run.pack_version,
      outcome.error,
      elapsed(started),
    ])
    return { status: outcome.status, steps: outcome.steps, ...(outcome.error ? { note: outcome.error } : {}) }
  }
  const fail = (error: string) => finish({ status: 'error', steps: [], error }, null)

  const pack = packOf(run)
  if (pack && 'problem' in pack) return fail(pack.problem)
  const account = run.account_id ? await loadAccount(ctx.db, run.account_id) : undefined
  if (!account) return fail('The canary account was deleted: choose another one.')
  if (account.status !== 'active')
    return fail(
      `The canary account @${account.username} is ${account.status}: it is skipped until it is active.`,
    )
  const used = await ctx.sessions.use(account.id, ctx.config.accountWaitMs, (handle) =>
    check(ctx, handle, account, run, pack, steps),
  )
  if (used.status === 'busy')
    return fail(`The canary account @${account.username} was busy with another job (${used.where}).`)
  return finish(used.value, pack)
}

/** The facts the run checks: the draft under test (if it fits this runner), or the platform's pack. */
function packOf(run: StartedRun): PackInUse | { problem: string } | null {
  if (run.trigger !== 'try') return null
  if (!run.pack_id || !run.pack_facts || !run.pack_version) return { problem: 'The draft pack was deleted.' }
  const issues = packIssues(run.pack_facts, CODE_DEFAULT_FACTS[run.platform])
  if (issues.length > 0)
    return {
      problem: `The draft does not fit this runner's facts: ${issues.map((i) => i.message).join('; ')}`,
    }
  return {
    platform: run.platform,
    version: run.pack_version,
    facts: run.pack_facts,
    source: 'draft',
    packId: run.pack_id,
  }
}

async function check(
  ctx: JobContext,
  handle: AccountHandle,
  account: AccountRow,
  run: Run,
  draft: PackInUse | null,
  steps: CanaryStep[],
): Promise<Outcome> {
  const pack = draft ?? ctx.sessions.packFor(account.platform)
  const results: StepResult[] = []
  const failed = async (step: string, label: string, since: number, error: unknown) =>
    results.push(await stepFailure(ctx, run, account, pack, step, label, since, error))
  try {
    const signIn = performance.now()
    let opened: Awaited<ReturnType<AccountHandle['open']>>
    try {
      opened = await handle.open(account, pack, 'full')
    } catch (error) {
      await failed('session', 'Sign in', signIn, error)
      return { status: 'failed', steps: results, error: null, packVersion: pack.version }
    }
    if (opened.status !== 'ok')
      return {
        status: 'error',
        steps: [
          {
            step: 'session',
            label: 'Sign in',
            status: 'failed',
            ms: elapsed(signIn),
            kind: 'error',
            message: opened.message,
          },
        ],
        error: `The canary account @${account.username} could not sign in: ${opened.message}`,
        packVersion: pack.version,
      }
    results.push({
      step: 'session',
      label: 'Sign in',
      status: 'passed',
      ms: elapsed(signIn),
      detail: `@${account.username}`,
    })

    const input: CanaryInput = {
      session: opened.session,
      threadId: run.thread_id,
      profile: run.profile_username ?? account.username,
      search: run.search_query,
      inbox: null,
    }
    for (const step of steps) {
      const since = performance.now()
      if (ctx.signal.aborted) {
        results.push({
          step: step.name,
          label: step.label,
          status: 'skipped',
          ms: 0,
          message: 'The run ran out of time.',
        })
        continue
      }
      try {
        const detail = await step.run(input)
        results.push({ step: step.name, label: step.label, status: 'passed', ms: elapsed(since), detail })
      } catch (error) {
        if (error instanceof SkipStep)
          results.push({
            step: step.name,
            label: step.label,
            status: 'skipped',
            ms: elapsed(since),
            message: error.message,
          })
        else await failed(step.name, step.label, since, error)
      }
    }
  } finally {
    // a draft's session, or one a page left in an unknown state, is not kept for the next job
    if (draft || results.some((r) => r.status === 'failed')) await handle.discard()
  }
  return {
    status: results.some((r) => r.status === 'failed') ? 'failed' : 'passed',
    steps: results,
    error: null,
    packVersion: pack.version,
  }
}

async function stepFailure(
  ctx: JobContext,
  run: Run,
  account: AccountRow,
  pack: PackInUse,
  step: string,
  label: string,
  since: number,
  error: unknown,
): Promise<StepResult> {
  const ms = elapsed(since)
  if (isSiteChange(error)) {
    // a draft that meets a changed page says something about the draft, not about the site
    const incidentId =
      run.trigger === 'try'
        ? undefined
        : await recordSiteChange(ctx.db, ctx.log, error, {
            source: 'canary',
            packVersion: pack.version,
            accountId: account.id,
            canaryRunId: run.id,
          })
    return {
      step,
      label,
      status: 'failed',
      ms,
      kind: 'layout_changed',
      message: `The page is not what the facts describe (at "${error.step}")`,
      path: error.path,
      outlineLines: error.outline.lines.length,
      ...(incidentId ? { incidentId } : {}),
    }
  }
  const kind =
    error instanceof StopSignalError
      ? 'stop_signal'
      : error instanceof OperationTimeoutError
        ? 'timeout'
        : 'error'
  return {
    step,
    label,
    status: 'failed',
    ms,
    kind,
    message: error instanceof Error ? error.message : String(error),
  }
}

// `Accept: application/vnd.pgrst.plan[+json|+text]; for="…"; options=…` with `pgrst.db_plan_enabled`:
// the request's statement under EXPLAIN instead of its result, as PostgREST 14 answers it
// (Statements.hs mtSnippet/explainF, MainTx.hs planRow: every output row followed by a newline;
// Response.hs: 200 with the plan media type as Content-Type). Like EXPLAIN itself, `analyze` runs
// the statement: a write is committed unless `Prefer: tx=rollback`.
import type { RestRequest } from './context.ts'
import { send } from './respond.ts'
import type { Statement } from './sql/statements.ts'

export async function sendPlan(ctx: RestRequest, body: Statement, readOnly: boolean): Promise<void> {
  const plan = ctx.accept.plan
  if (!plan) throw new Error('sendPlan needs a plan media type')
  const options = [
    plan.format === 'json' ? 'FORMAT JSON' : 'FORMAT TEXT',
    ...plan.options.map((o) => o.toUpperCase()),
  ]
  const statement: Statement = {
    text: `EXPLAIN (${options.join(', ')}) ${body.text}`,
    values: body.values,
    rawText: true,
  }
  const end = ctx.prefs.tx === 'rollback' ? 'rollback' : 'commit'
  const { results } = await ctx.service.executor.transaction(ctx.settings, [statement], {
    readOnly,
    end,
    explain: true,
  })
  const payload = (results[0]?.rows ?? []).map((row) => `${String(row['QUERY PLAN'])}\n`).join('')
  send(ctx.request.res, 200, { 'Content-Type': `${plan.contentType}; charset=utf-8` }, payload)
}

// Records what X bills an official account's developer app for one answered call (pay-per-use):
// the kinds and keys come from the domain package, the database counts a read resource once per
// UTC day as X does. A recording that fails throws: a send then counts as uncertain and is settled
// by reading the conversation, so a lost count never becomes a second DM.
import { type ApiAnswer, xApiUsageOf } from '@reachflow/domain'
import type { Queryable } from '../../db.ts'

export async function recordXApiUsage(
  account: { accountId: string; selfId: string; db: Queryable },
  call: { method: 'GET' | 'POST'; path: string; answer: ApiAnswer<unknown> },
): Promise<void> {
  const usage = xApiUsageOf({
    method: call.method,
    path: call.path,
    ok: call.answer.ok,
    data: call.answer.ok ? call.answer.data : null,
    selfId: account.selfId,
  })
  if (!usage || usage.keys.length === 0) return
  await account.db.query('select public.record_x_api_usage($1, $2, $3)', [
    account.accountId,
    usage.kind,
    usage.keys,
  ])
}

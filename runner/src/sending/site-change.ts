// The DM in hand when the page turned out not to be what the adapter expects. Settled for what it
// is, never blamed on the account (no trust change, and the incident on its log row keeps it out
// of the circuit breaker): stopped before send was pressed, nothing went out, so it is logged
// deferred like a page that ran out of time (no failure in the figures or the delivery rate, the
// attempt given back) and the step is due again, sent after the pause; pressed, it is uncertain
// and the thread decides later, never a blind resend.
import { type Db, inTransaction } from '../db.ts'
import type { Intent } from './intent.ts'

export async function settleAtSiteChange(
  db: Db,
  intent: Pick<Intent, 'logId' | 'leadId' | 'previousState'>,
  incidentId: string,
  pressed: boolean,
  reason: string,
): Promise<void> {
  await inTransaction(db, async (client) => {
    await client.query(
      pressed
        ? 'update public.dm_logs set error = left($2, 1000), incident_id = $3 where id = $1'
        : `update public.dm_logs set status = 'deferred', error = left($2, 1000), incident_id = $3 where id = $1`,
      [intent.logId, reason, incidentId],
    )
    await client.query(
      `update public.campaign_leads set state = $2, last_error = left($3, 1000)
        where id = $1 and state in ('sending', 'uncertain')`,
      [intent.leadId, pressed ? 'uncertain' : intent.previousState, reason],
    )
  })
}

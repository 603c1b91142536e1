// X dates messages and inbox rows only by labels ("now", "10:09 AM"), which the adapter reads
// against "now". The runner compares those times with its own (last read, last DM), which come
// from the database's clock (internal.now(), shifted in tests), so a session reads labels on that
// clock: this sets how far it is ahead of the machine's before a read.
import { dbNow, type Queryable } from '../db.ts'
import type { PlatformSession } from '../platforms/types.ts'

/** Aligns the session's label clock with the database's; `now`: internal.now() when already read. */
export async function alignSessionClock(db: Queryable, session: PlatformSession, now?: Date): Promise<void> {
  const runnerNow = now ?? (await dbNow(db))
  session.clockOffsetMs = runnerNow.getTime() - Date.now()
}

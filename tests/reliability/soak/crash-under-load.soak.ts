// The long crash-under-load run (soak only): 200 customers read their dashboards through the gateway
// while the real runner sending 150 DMs from 5 accounts is killed with SIGKILL 10 times (the bounded
// crash test under the gateway read load). Same checks as the bounded run in `npm test`
// (tests/reliability/alone/crash-under-load.test.ts): every read answered, no duplicate, none lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeAdminDb } from '../../../runner/test/helpers/fixtures.ts'
import { quietOtherWork } from '../../../runner/test/helpers/process.ts'
import { crashUnderLoad, describeFigures } from '../alone/crash-under-load.ts'

const CUSTOMERS = Number(process.env.SOAK_CRASH_CUSTOMERS ?? 200)
const KILLS = 10

let restoreOtherWork: (() => Promise<void>) | undefined
beforeAll(async () => {
  restoreOtherWork = await quietOtherWork()
})
afterAll(async () => {
  await restoreOtherWork?.()
  await closeAdminDb()
})

describe('runner SIGKILL under read load (long)', () => {
  it(`${CUSTOMERS} customers reading, ${KILLS} SIGKILLs: every read answered, no duplicate, none lost`, async () => {
    const figures = await crashUnderLoad({
      customers: CUSTOMERS,
      kills: KILLS,
      accounts: 5,
      // 60 an account (300 DMs) outlasted the last runner's 8 minutes: five accounts' pacing sends
      // about 15 a minute, so ~95 were still due when the wait ended, none stuck, and the soak failed on
      // pacing rather than on a lost send
      leadsPerAccount: 30,
      profileOffset: 4_000,
      requestTimeoutS: 30,
    })
    console.log(describeFigures('runner SIGKILL under load (soak)', figures, CUSTOMERS))
    expect(figures.verdict.duplicates).toEqual([])
    expect(figures.verdict.lost).toEqual([])
    expect(figures.killedAfter).toHaveLength(KILLS)
    expect(figures.verdict.states.sent ?? 0).toBeGreaterThanOrEqual(KILLS)
    expect({ non2xx: figures.non2xx, errors: figures.errors }).toEqual({ non2xx: 0, errors: 0 })
  }, 1_800_000)
})

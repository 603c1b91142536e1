// The bounded crash-under-load run for `npm test`: 50 customers read their dashboards through the
// gateway while the runner sending 20 DMs is killed with SIGKILL 3 times. The gateway must answer
// every read (error rate 0 %: the runner's crashes are not the customers' problem), and the sandbox's
// delivery log must show no duplicate and no lead lost. The long run is in `npm run soak`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeAdminDb } from '../../../runner/test/helpers/fixtures.ts'
import { quietOtherWork } from '../../../runner/test/helpers/process.ts'
import { crashUnderLoad, describeFigures } from './crash-under-load.ts'

const CUSTOMERS = 50
const KILLS = 3

let restoreOtherWork: (() => Promise<void>) | undefined
beforeAll(async () => {
  restoreOtherWork = await quietOtherWork()
})
afterAll(async () => {
  await restoreOtherWork?.()
  await closeAdminDb()
})

describe('runner SIGKILL under read load', () => {
  it(`${CUSTOMERS} customers reading, ${KILLS} SIGKILLs: every read answered, no duplicate, none lost`, async () => {
    const figures = await crashUnderLoad({
      customers: CUSTOMERS,
      kills: KILLS,
      accounts: 2,
      leadsPerAccount: 10,
      profileOffset: 3_200,
      requestTimeoutS: 30,
    })
    console.log(describeFigures('runner SIGKILL under load (npm test)', figures, CUSTOMERS))
    expect(figures.verdict.duplicates).toEqual([])
    expect(figures.verdict.lost).toEqual([])
    expect(figures.killedAfter).toHaveLength(KILLS)
    expect(
      figures.verdict.states.sent ?? 0,
      'the kills hit a runner that really sent',
    ).toBeGreaterThanOrEqual(KILLS)
    expect(figures.requests, 'the load really ran').toBeGreaterThan(CUSTOMERS)
    expect({ non2xx: figures.non2xx, errors: figures.errors }).toEqual({ non2xx: 0, errors: 0 })
  }, 900_000)
})

// The function pool when its port is bound by someone else between its check and Deno's bind (a
// second pool on the same range, a gateway restarting, any process that took the port meanwhile):
// the start moves to another port instead of failing the call with 503.
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { E2E_INSTANCES, repoRoot, stackConfig } from '../../src/config.ts'
import { FunctionPool } from '../src/functions/pool.ts'

const fixtures = join(repoRoot, 'stack', 'gateway', 'test', 'fixtures', 'functions')
const ECHO = 'gateway-test-echo'

describe('the function pool', () => {
  const config = stackConfig('test')
  // ports no stack uses: above the last of Playwright's stacks (`e2e1`, `e2e2`), which sit above
  // `test` and run beside this file
  const afterStacks = Math.max(...E2E_INSTANCES.map((instance) => stackConfig(instance).ports.meta)) + 1
  const ranged = { ...config, ports: { ...config.ports, functions: afterStacks } }
  const logs: string[] = []
  const log = (level: string, message: string) => logs.push(`${level} ${message}`)
  const pools = [new FunctionPool(ranged, [fixtures], log), new FunctionPool(ranged, [fixtures], log)]
  afterAll(() => {
    for (const pool of pools) pool.stopAll()
  })

  it('starts on another port when the one it found free is bound before its function listens', async () => {
    const entry = pools[0]?.entryOf(ECHO) ?? ''
    expect(entry).not.toBe('')
    // Both pools find the first port free in the same moment; only one function can bind it.
    const running = await Promise.all(pools.map((pool) => pool.acquire(ECHO, entry)))
    const ports = running.map((r) => r.port)
    expect(new Set(ports).size).toBe(2)
    expect(ports).toContain(ranged.ports.functions)
    expect(logs).toContain(
      `warn function ${ECHO}: port ${ranged.ports.functions} was taken, starting on another`,
    )
    for (const [i, r] of running.entries()) {
      pools[i]?.release(r)
      const answer = await fetch(`http://127.0.0.1:${r.port}/${ECHO}`, { method: 'POST', body: '{}' })
      expect(answer.status).toBe(200)
    }
  }, 60_000)
})

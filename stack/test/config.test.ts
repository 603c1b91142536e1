import { afterEach, describe, expect, it } from 'vitest'
import {
  ANON_KEY,
  INSTANCE_OFFSETS,
  SERVICE_ROLE_KEY,
  signHs256,
  stackConfig,
  stackPortRange,
} from '../src/config.ts'

describe('stack config', () => {
  afterEach(() => {
    delete process.env.STACK_PORT_BASE
  })

  it('signs the same anon and service keys as the Supabase CLI', () => {
    expect(ANON_KEY).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
    )
    expect(SERVICE_ROLE_KEY.split('.')[1]).toBe(
      Buffer.from(JSON.stringify({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 })).toString(
        'base64url',
      ),
    )
    expect(signHs256({ a: 1 }, 'x')).not.toBe(signHs256({ a: 1 }, 'y'))
  })

  it('gives dev and test instances disjoint ports', () => {
    const dev = Object.values(stackConfig('dev').ports)
    const test = Object.values(stackConfig('test').ports)
    expect(new Set([...dev, ...test]).size).toBe(dev.length + test.length)
    expect(stackConfig('dev').ports.api).toBe(54321)
    expect(stackConfig('dev').ports.db).toBe(54322)
  })

  it('gives every stack npm test may run at once ports of its own, inside the reserved range', () => {
    // the named ones, and one that starts at the shared offset (the supervisor test's, pg-boss's)
    const instances = [...Object.keys(INSTANCE_OFFSETS), 'suptest']
    const ports = instances.flatMap((instance) => Object.values(stackConfig(instance).ports))
    expect(new Set(ports).size).toBe(ports.length)
    const [first, last] = stackPortRange()
    expect(Math.min(...ports)).toBe(first)
    expect(Math.max(...ports)).toBe(last)
    // a checkout on the next port base (STACK_PORT_BASE=100) meets none of them
    process.env.STACK_PORT_BASE = '100'
    const next = instances.flatMap((instance) => Object.values(stackConfig(instance).ports))
    expect(next.filter((port) => ports.includes(port))).toEqual([])
    expect(stackPortRange()[0]).toBe(first + 100)
  })

  it('moves every port with STACK_PORT_BASE and rejects nonsense', () => {
    process.env.STACK_PORT_BASE = '100'
    expect(stackConfig('dev').ports.api).toBe(54421)
    process.env.STACK_PORT_BASE = 'abc'
    expect(() => stackConfig('dev')).toThrow(/STACK_PORT_BASE/)
  })
})

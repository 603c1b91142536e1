// Loaded before each postgrest-js test file by run.ts: the Jest API those tests use, an API key on
// every request to the gateway (supabase-js always sends one; the CLI's local Kong does not need
// it, the gateway, like hosted Supabase, does), and a record of which tests reached the gateway.
import { appendFileSync } from 'node:fs'
import { afterAll, beforeEach, vi } from 'vitest'

const rest = process.env.CONFORMANCE_REST_URL ?? ''
const anonKey = process.env.CONFORMANCE_ANON_KEY ?? ''
const record = process.env.CONFORMANCE_REACHED_FILE ?? ''

Object.assign(globalThis, { jest: vi })

type Task = { name: string; suite?: Task }
let current: string[] = []
const reached = new Set<string>()

/** The test's describe titles and name, as vitest's JSON report lists them. */
function titles(task: Task): string[] {
  const names = [task.name]
  for (let suite = task.suite; suite; suite = suite.suite) names.unshift(suite.name)
  return names
}

beforeEach((context) => {
  current = titles(context.task as unknown as Task)
})

const realFetch = globalThis.fetch
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const url = input instanceof Request ? input.url : String(input)
  if (!rest || !url.startsWith(rest)) return realFetch(input, init)
  reached.add(JSON.stringify(current))
  const headers = new Headers(input instanceof Request ? input.headers : undefined)
  for (const [key, value] of new Headers(init?.headers)) headers.set(key, value)
  if (!headers.has('apikey')) headers.set('apikey', anonKey)
  return realFetch(input, { ...init, headers })
}

afterAll(() => {
  if (!record) return
  for (const test of reached) appendFileSync(record, `${test}\n`)
})

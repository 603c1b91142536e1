// Where an instance of the local stack lives and which ports it uses.
// `dev` is what `npm start` runs; `test` is what `npm test` runs, on other ports, so both can run at once;
// `e2e1` and `e2e2` are the stacks `npm test` starts for Playwright, one per worker, beside `test`;
// `alone` is the one it starts for pgTAP, the runner-alone files and deno.
// STACK_PORT_BASE shifts every port of both instances (e.g. 100 → 54421/55421), for parallel checkouts.
import { createHmac } from 'node:crypto'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The JWT secret of every local Supabase (the CLI's documented default); never used in production. */
export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
/** Opaque keys as the Supabase CLI prints them locally; the gateway maps them to the JWT keys. */
export const LOCAL_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH'
export const LOCAL_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz'
export const DB_PASSWORD = 'postgres'
/** The local password of the runner's role (NOLOGIN in the migrations; each environment sets its own). */
export const RUNNER_DB_PASSWORD = 'reachflow-runner-local'

const base64url = (input: string | Buffer) => Buffer.from(input).toString('base64url')

/** Signs an HS256 JWT synchronously (the anon and service_role keys are fixed, like the CLI's demo keys). */
export function signHs256(payload: Record<string, unknown>, secret = LOCAL_JWT_SECRET): string {
  const head = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const body = base64url(JSON.stringify(payload))
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')
  return `${head}.${body}.${signature}`
}

export const ANON_KEY = signHs256({ iss: 'supabase-demo', role: 'anon', exp: 1983812996 })
export const SERVICE_ROLE_KEY = signHs256({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 })

/** Port offsets inside one instance; every service adds these to the instance's first port (54321). */
const PORT_SLOTS = {
  api: 0,
  db: 1,
  web: 2,
  functions: 9, // first of the per-function Deno ports (api, admin, stripe-webhook, …)
  stripe: 19,
  x: 20,
  instagram: 21,
  google: 22,
  runnerHealth: 23,
  ai: 24,
  meta: 25,
} as const

export type PortName = keyof typeof PORT_SLOTS
export type StackConfig = ReturnType<typeof stackConfig>

export function instanceName(): string {
  const name = process.env.STACK_INSTANCE ?? 'dev'
  if (!/^[a-z][a-z0-9-]{0,30}$/.test(name)) {
    throw new Error(`STACK_INSTANCE must be a short lowercase name, got "${name}".`)
  }
  return name
}

/** Playwright's stacks, one per worker, so its specs run beside vitest and each other on data of their own. */
export const E2E_INSTANCES = ['e2e1', 'e2e2']
/** The environments of those stacks (JSON, one per worker), which `npm test` gives Playwright. */
export const E2E_STACKS_VARIABLE = 'REACHFLOW_E2E_STACKS'

/** `npm test`'s stack for pgTAP, the runner-alone files and deno, beside the `test` stack's node files. */
export const ALONE_INSTANCE = 'alone'

/**
 * Where an instance's ports start, above 54321 + STACK_PORT_BASE. Bases are hundreds apart and an
 * instance takes 26 ports, so each base owns three hundreds: `dev` and `alone` in the first, `test`
 * and the e2e stacks in the second (`function-pool.test.ts` borrows the ports above them), a test's
 * or a bench's own stack in the third. The two migration tests run in runner-alone, beside the
 * supervisor and pg-boss tests (which start theirs at 2000), so theirs start above.
 */
export const INSTANCE_OFFSETS: Record<string, number> = {
  dev: 0,
  [ALONE_INSTANCE]: 30,
  test: 1000,
  e2e1: 1030,
  e2e2: 1060,
  renamedmigrations: 2030,
  workspacesmigration: 2060,
}
/** Where every other instance (the supervisor test's, pg-boss upgrade's, a bench's) starts. */
export const OTHER_INSTANCE_OFFSET = 2000

export function stackConfig(instance = instanceName()) {
  const portBase = Number(process.env.STACK_PORT_BASE ?? 0)
  if (!Number.isInteger(portBase) || portBase < 0 || portBase > 9000) {
    throw new Error(
      `STACK_PORT_BASE must be a whole number from 0 to 9000, got "${process.env.STACK_PORT_BASE}".`,
    )
  }
  const first = 54321 + portBase + (INSTANCE_OFFSETS[instance] ?? OTHER_INSTANCE_OFFSET)
  const ports = Object.fromEntries(
    Object.entries(PORT_SLOTS).map(([name, slot]) => [name, first + slot]),
  ) as Record<PortName, number>
  const dir = join(repoRoot, '.stack', instance)
  const host = '127.0.0.1'
  const url = (port: number) => `http://${host}:${port}`
  return {
    instance,
    dir,
    dataDir: join(dir, 'db'),
    logDir: join(dir, 'logs'),
    storageDir: join(dir, 'storage'),
    statusFile: join(dir, 'status.json'),
    // an e2e stack's build of the web app talks to that stack's gateway; the others serve web/dist
    webDist: E2E_INSTANCES.includes(instance) ? join(dir, 'web') : join(repoRoot, 'web', 'dist'),
    lockFile: join(dir, 'supervisor.pid'),
    host,
    ports,
    apiUrl: url(ports.api),
    webUrl: url(ports.web),
    dbUrl: `postgresql://postgres:${DB_PASSWORD}@${host}:${ports.db}/postgres`,
    adminDbUrl: `postgresql://supabase_admin:${DB_PASSWORD}@${host}:${ports.db}/postgres`,
    runnerDbUrl: `postgresql://reachflow_runner:${RUNNER_DB_PASSWORD}@${host}:${ports.db}/postgres`,
    sandboxUrls: {
      stripe: url(ports.stripe),
      x: url(ports.x),
      instagram: url(ports.instagram),
      google: url(ports.google),
      ai: url(ports.ai),
      meta: url(ports.meta),
    },
    jwtSecret: LOCAL_JWT_SECRET,
    anonKey: ANON_KEY,
    serviceRoleKey: SERVICE_ROLE_KEY,
    publishableKey: LOCAL_PUBLISHABLE_KEY,
    secretKey: LOCAL_SECRET_KEY,
  }
}

/** The first and last port any instance of this port base may take (dev's api to the last migration test's). */
export function stackPortRange(): [number, number] {
  const offsets = [...Object.values(INSTANCE_OFFSETS), OTHER_INSTANCE_OFFSET]
  const first = stackConfig('dev').ports.api - (INSTANCE_OFFSETS.dev ?? 0)
  const lastSlot = Math.max(...Object.values(PORT_SLOTS))
  return [first + Math.min(...offsets), first + Math.max(...offsets) + lastSlot]
}

export function ensureDir(path: string): string {
  if (!existsSync(path)) mkdirSync(path, { recursive: true })
  return path
}

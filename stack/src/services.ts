// The long-running processes of one stack instance, besides PostgreSQL (which pg_ctl runs).
// Each is a child of the supervisor in its own process group, restarted if it crashes.
import { join } from 'node:path'
import { repoRoot, type StackConfig } from './config.ts'
import { aiEnv, functionsEnv } from './functions-env.ts'

export interface ServiceSpec {
  name: string
  command: string
  args: string[]
  env: Record<string, string>
  /** Answered with any HTTP status below 500 once the service is ready. */
  readyUrl?: string
  /** Started only once the others are ready and the demo is prepared (stack/src/demo.ts). */
  startsLast?: boolean
}

const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx')
const webRoot = join(repoRoot, 'web')

/** Environment every service of the instance shares: where everything is, and the local keys. */
export function sharedEnv(config: StackConfig): Record<string, string> {
  return {
    STACK_INSTANCE: config.instance,
    STACK_PORT_BASE: process.env.STACK_PORT_BASE ?? '0',
    SUPABASE_URL: config.apiUrl,
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_DB_URL: config.dbUrl,
    RUNNER_DATABASE_URL: config.runnerDbUrl,
    SITE_URL: config.webUrl,
    STRIPE_API_BASE: config.sandboxUrls.stripe,
    X_BASE_URL: config.sandboxUrls.x,
    // X API v2 (api.x.com) is served by the same X sandbox, on the same world
    X_API_BASE_URL: config.sandboxUrls.x,
    INSTAGRAM_BASE_URL: config.sandboxUrls.instagram,
    GOOGLE_OAUTH_BASE_URL: config.sandboxUrls.google,
    AI_SANDBOX_URL: config.sandboxUrls.ai,
  }
}

/**
 * Gateway settings that differ per instance: the test instance also serves the gateway's fixture
 * functions, its sign-in limits are ones a conformance test can reach in a few requests, and it
 * believes X-Forwarded-For from loopback so tests can act as many clients.
 */
export function gatewayEnv(isTest: boolean): Record<string, string> {
  const functionRoots = [join(repoRoot, 'supabase', 'functions')]
  if (isTest) functionRoots.push(join(repoRoot, 'stack', 'gateway', 'test', 'fixtures', 'functions'))
  return {
    FUNCTIONS_ROOTS: functionRoots.join(':'),
    AUTH_SIGN_IN_LIMIT_PER_IP: isTest ? '300' : '30',
    AUTH_SIGN_IN_LIMIT_PER_EMAIL: '10',
    AUTH_SIGN_IN_LIMIT_WINDOW_SECONDS: '300',
    // supabase/config.toml [auth.rate_limit] token_verifications.
    AUTH_VERIFY_LIMIT_PER_IP: isTest ? '300' : '30',
    // Guesses at e-mailed codes (gateway/src/auth/guessing.ts): wrong codes or hashes from everyone
    // per window, and wrong codes per e-mail, before guessing sources are backed off. The test
    // instance's budget stays above what the parallel suites miss, and its window and first backoff
    // outlast the flood test however slow the machine is. Code length, lifetime and resend interval
    // come from supabase/config.toml [auth.email].
    AUTH_VERIFY_MISSES_GLOBAL: isTest ? '1000' : '60',
    AUTH_VERIFY_MISS_WINDOW_SECONDS: isTest ? '300' : '60',
    AUTH_WRONG_CODES_PER_USER: '5',
    AUTH_VERIFY_BACKOFF_SECONDS: isTest ? '300' : '2',
    // Tests on the test instance stand in for many clients by naming one in X-Forwarded-For, as a
    // proxy would; the dev instance trusts no forwarding header (hosted: only Supabase's proxy).
    AUTH_TRUSTED_PROXIES: isTest ? '127.0.0.1,::1,::ffff:127.0.0.1' : '',
  }
}

/**
 * The runner for `npm start`: as the least-privilege role, with the shared encryption keys, and
 * gaps between DMs compressed (RUNNER_PACING_FACTOR) so the demo campaign visibly sends.
 */
function runnerService(
  config: StackConfig,
  env: Record<string, string>,
  fnEnv: Record<string, string>,
): ServiceSpec {
  return {
    name: 'runner',
    command: tsx,
    args: [join(repoRoot, 'runner', 'src', 'main.ts')],
    env: {
      ...env,
      REACHFLOW_ENCRYPTION_KEYS: fnEnv.REACHFLOW_ENCRYPTION_KEYS ?? '',
      REACHFLOW_ENCRYPTION_KEY_ID: fnEnv.REACHFLOW_ENCRYPTION_KEY_ID ?? '',
      RUNNER_HEALTH_PORT: String(config.ports.runnerHealth),
      INSTAGRAM_GRAPH_URL: config.sandboxUrls.meta,
      RUNNER_PACING_FACTOR: process.env.RUNNER_PACING_FACTOR ?? '0.05',
      RUNNER_SEND_CONCURRENCY: '4',
      ...aiEnv(config),
    },
    readyUrl: `http://${config.host}:${config.ports.runnerHealth}/health`,
    startsLast: true,
  }
}

/**
 * Instances with the demo customer's live runner: `dev` (`npm start`) and `load` (`npm run
 * bench:load`, where the issue asks for DMs to keep going out while customers read their dashboards).
 */
export function runsDemoRunner(config: StackConfig): boolean {
  return config.instance === 'dev' || config.instance === 'load'
}

export function serviceSpecs(config: StackConfig): ServiceSpec[] {
  const env = sharedEnv(config)
  const fnEnv = functionsEnv(config)
  const isTest = config.instance !== 'dev'
  return [
    {
      name: 'gateway',
      command: tsx,
      args: [join(repoRoot, 'stack', 'gateway', 'src', 'main.ts')],
      env: { ...env, ...gatewayEnv(isTest) },
      readyUrl: `${config.apiUrl}/health`,
    },
    {
      name: 'google',
      command: tsx,
      args: [join(repoRoot, 'stack', 'sandbox', 'google', 'main.ts')],
      env,
      readyUrl: `${config.sandboxUrls.google}/health`,
    },
    {
      name: 'web',
      command: join(repoRoot, 'node_modules', '.bin', 'vite'),
      // The first argument is Vite's root: the services run from the repo root, the app lives in web/.
      args: isTest
        ? [
            'preview',
            webRoot,
            '--outDir',
            config.webDist,
            '--host',
            config.host,
            '--port',
            String(config.ports.web),
            '--strictPort',
          ]
        : [webRoot, '--host', config.host, '--port', String(config.ports.web), '--strictPort'],
      env: {
        ...env,
        VITE_SUPABASE_URL: config.apiUrl,
        VITE_SUPABASE_ANON_KEY: config.anonKey,
      },
      readyUrl: config.webUrl,
    },
    {
      name: 'stripe',
      command: tsx,
      args: [join(repoRoot, 'stack', 'sandbox', 'stripe', 'main.ts')],
      env: {
        ...env,
        STRIPE_SECRET_KEY: fnEnv.STRIPE_SECRET_KEY ?? '',
        STRIPE_WEBHOOK_SECRET: fnEnv.STRIPE_WEBHOOK_SECRET ?? '',
      },
      readyUrl: `${config.sandboxUrls.stripe}/__sandbox/health`,
    },
    {
      name: 'sandbox-ai',
      command: tsx,
      args: [join(repoRoot, 'stack', 'sandbox', 'ai', 'main.ts')],
      env,
      readyUrl: `${config.sandboxUrls.ai}/__sandbox/health`,
    },
    {
      name: 'sandbox-x',
      command: tsx,
      args: [join(repoRoot, 'stack', 'sandbox', 'x', 'server.ts')],
      env,
      readyUrl: `${config.sandboxUrls.x}/__sandbox/health`,
    },
    {
      name: 'sandbox-instagram',
      command: tsx,
      args: [join(repoRoot, 'stack', 'sandbox', 'instagram', 'server.ts')],
      env,
      readyUrl: `${config.sandboxUrls.instagram}/__sandbox/health`,
    },
    {
      name: 'sandbox-meta',
      command: tsx,
      args: [join(repoRoot, 'stack', 'sandbox', 'meta', 'main.ts')],
      env,
      readyUrl: `${config.sandboxUrls.meta}/__sandbox/health`,
    },
    // The test and bench instances have no runner of their own: their tests and benchmarks start the
    // runners they need.
    ...(runsDemoRunner(config) ? [runnerService(config, env, fnEnv)] : []),
  ].map((spec) => ({ ...spec, env: { ...spec.env, TSX_BIN: tsx } }))
}

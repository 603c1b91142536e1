// The long-running processes of one stack instance, besides PostgreSQL (which pg_ctl runs).
// Each is a child of the supervisor in its own process group, restarted if it crashes.
import { join } from 'node:path'
import { repoRoot, type StackConfig } from './config.ts'

export interface ServiceSpec {
  name: string
  command: string
  args: string[]
  env: Record<string, string>
  /** Answered with any HTTP status below 500 once the service is ready. */
  readyUrl?: string
}

const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx')

/** Environment every service of the instance shares: where everything is, and the local keys. */
export function sharedEnv(config: StackConfig): Record<string, string> {
  return {
    STACK_INSTANCE: config.instance,
    STACK_PORT_BASE: process.env.STACK_PORT_BASE ?? '0',
    SUPABASE_URL: config.apiUrl,
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_DB_URL: config.dbUrl,
    SITE_URL: config.webUrl,
    STRIPE_API_BASE: config.sandboxUrls.stripe,
    X_BASE_URL: config.sandboxUrls.x,
    INSTAGRAM_BASE_URL: config.sandboxUrls.instagram,
    GOOGLE_OAUTH_BASE_URL: config.sandboxUrls.google,
  }
}

export function serviceSpecs(config: StackConfig): ServiceSpec[] {
  const env = sharedEnv(config)
  const isTest = config.instance !== 'dev'
  return [
    {
      name: 'web',
      command: join(repoRoot, 'node_modules', '.bin', 'vite'),
      args: isTest
        ? ['preview', '--host', config.host, '--port', String(config.ports.web), '--strictPort']
        : ['--host', config.host, '--port', String(config.ports.web), '--strictPort'],
      env: {
        ...env,
        VITE_SUPABASE_URL: config.apiUrl,
        VITE_SUPABASE_ANON_KEY: config.anonKey,
      },
      readyUrl: config.webUrl,
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
  ].map((spec) => ({ ...spec, env: { ...spec.env, TSX_BIN: tsx } }))
}

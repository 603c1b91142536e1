// The environment an edge function gets: what hosted Supabase injects (SUPABASE_URL, the keys,
// SUPABASE_DB_URL), the project's local secrets from stack/src/functions-env.ts when that module
// exists, and the developer's own git-ignored supabase/functions/.env (which wins).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { repoRoot, type StackConfig } from '../../../src/config.ts'

type Env = Record<string, string>

/** KEY=VALUE lines; `#` comments, optional `export`, optional single or double quotes. */
export function parseDotenv(text: string): Env {
  const env: Env = {}
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)?\s*$/.exec(line)
    if (!match?.[1]) continue
    let value = (match[2] ?? '').trim()
    const quoted = /^(['"])(.*)\1$/.exec(value)
    if (quoted) value = quoted[1] === '"' ? (quoted[2] ?? '').replace(/\\n/g, '\n') : (quoted[2] ?? '')
    else value = value.replace(/\s+#.*$/, '')
    env[match[1]] = value
  }
  return env
}

function stringValues(value: unknown): Env {
  if (typeof value !== 'object' || value === null) return {}
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
}

/** Secrets from stack/src/functions-env.ts: its `functionsEnv(config)` (or default export), if any. */
async function projectSecrets(config: StackConfig): Promise<Env> {
  const file = join(repoRoot, 'stack', 'src', 'functions-env.ts')
  if (!existsSync(file)) return {}
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  const source = module.functionsEnv ?? module.default
  return stringValues(typeof source === 'function' ? await source(config) : source)
}

function dotenvSecrets(): Env {
  const file = join(repoRoot, 'supabase', 'functions', '.env')
  return existsSync(file) ? parseDotenv(readFileSync(file, 'utf8')) : {}
}

export async function functionEnv(config: StackConfig): Promise<Env> {
  const base: Env = {}
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'DENO_DIR', 'LANG', 'TZ']) {
    const value = process.env[name]
    if (value) base[name] = value
  }
  return {
    ...base,
    NO_COLOR: '1',
    SUPABASE_URL: config.apiUrl,
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_DB_URL: config.dbUrl,
    ...(await projectSecrets(config)),
    ...dotenvSecrets(),
  }
}

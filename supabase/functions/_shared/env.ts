// Reading configuration from the environment. Modules take an `Env` so tests can pass their own
// values; in a deployed function it is Deno's environment (set with `supabase secrets set`).

export type Env = (name: string) => string | undefined

export const denoEnv: Env = (name) => Deno.env.get(name)

/** A missing or malformed setting: a deployment bug, answered as a 500 without details. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

export function requireEnv(name: string, env: Env = denoEnv): string {
  const value = env(name)?.trim()
  if (!value) throw new ConfigError(`Environment variable ${name} is not set`)
  return value
}

/** An Env over a plain object, for tests and for callers that assemble settings themselves. */
export function envFrom(values: Record<string, string | undefined>): Env {
  return (name) => values[name]
}

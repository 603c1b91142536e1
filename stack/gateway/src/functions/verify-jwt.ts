// Hosted Supabase checks the JWT of a function call before the function runs, unless
// supabase/config.toml says `verify_jwt = false` for it (webhooks, which carry no Supabase key).
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../../../src/config.ts'

const configFile = join(repoRoot, 'supabase', 'config.toml')
let cache: { mtimeMs: number; settings: Map<string, boolean> } | undefined

/** `[functions.<name>] verify_jwt = <bool>` from config.toml, read again whenever the file changes. */
function readSettings(): Map<string, boolean> {
  if (!existsSync(configFile)) return new Map()
  const mtimeMs = statSync(configFile).mtimeMs
  if (cache?.mtimeMs === mtimeMs) return cache.settings
  const settings = new Map<string, boolean>()
  let section: string | undefined
  for (const line of readFileSync(configFile, 'utf8').split(/\r?\n/)) {
    const header = /^\s*\[\s*functions\.("?)([A-Za-z0-9_-]+)\1\s*\]/.exec(line)
    if (header) section = header[2]
    else if (/^\s*\[/.test(line)) section = undefined
    const setting = /^\s*verify_jwt\s*=\s*(true|false)\b/.exec(line)
    if (section && setting) settings.set(section, setting[1] === 'true')
  }
  cache = { mtimeMs, settings }
  return settings
}

export function functionVerifiesJwt(name: string): boolean {
  return readSettings().get(name) ?? true
}

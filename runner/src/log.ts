// Structured logs: one JSON line on stdout and a row in system_logs (the admin Logs tab). Metadata
// passes through a filter that drops anything named like a secret and cuts long strings, so
// cookies, passwords, passcodes and ciphertext never reach a log, whatever a caller passes.
import type { Db } from './db.ts'
import type { Platform } from './platforms/types.ts'

export type LogLevel = 'error' | 'warn' | 'info' | 'debug'
export type LogService = 'instagram' | 'twitter' | 'scheduler' | 'warmup' | 'api'

const SECRET_KEY = /cookie|password|passcode|secret|token|ciphertext|auth|session|credential|totp|ct0/i
const MAX_STRING = 500

export function serviceOf(platform: Platform | 'twitter' | 'x'): LogService {
  return platform === 'instagram' ? 'instagram' : 'twitter'
}

/** A copy of metadata that is safe to store: no secret-looking keys, short strings, no deep nesting. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value
  if (typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Date) return value.toISOString()
  if (value instanceof Error) return redact({ name: value.name, message: value.message }, depth)
  if (depth >= 4) return '[nested]'
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redact(item, depth + 1))
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      if (SECRET_KEY.test(key)) continue
      out[key] = redact(item, depth + 1)
    }
    return out
  }
  return String(value)
}

export class Logger {
  constructor(
    readonly db: Db | undefined,
    readonly base: Record<string, unknown> = {},
    readonly minLevel: LogLevel = 'info',
    /** Also print each line as JSON on stdout/stderr (off in tests). */
    readonly echo = true,
  ) {}

  with(fields: Record<string, unknown>): Logger {
    return new Logger(this.db, { ...this.base, ...fields }, this.minLevel, this.echo)
  }

  error(service: LogService, message: string, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.write('error', service, message, metadata)
  }
  warn(service: LogService, message: string, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.write('warn', service, message, metadata)
  }
  info(service: LogService, message: string, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.write('info', service, message, metadata)
  }
  debug(service: LogService, message: string, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.write('debug', service, message, metadata)
  }

  async write(
    level: LogLevel,
    service: LogService,
    message: string,
    metadata: Record<string, unknown>,
  ): Promise<void> {
    if (LEVELS.indexOf(level) > LEVELS.indexOf(this.minLevel)) return
    const meta = redact({ ...this.base, ...metadata }) as Record<string, unknown>
    const line = { at: new Date().toISOString(), level, service, message, ...meta }
    if (this.echo)
      (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(
        `${JSON.stringify(line)}\n`,
      )
    if (!this.db) return
    try {
      await this.db.query(
        'insert into public.system_logs (level, service, message, metadata) values ($1, $2, $3, $4)',
        [level, service, message.slice(0, 2000), meta],
      )
    } catch {
      // the log table being unreachable must never fail the work being logged
    }
  }
}

const LEVELS: LogLevel[] = ['error', 'warn', 'info', 'debug']

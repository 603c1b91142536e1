// Reading an RPC's jsonb result. The generated types can only say `Json` for it, so each caller
// states the shape with a zod schema typed against the generated row types; a result of another
// shape is a bug in the SQL or here, and fails loudly (a 500) instead of flowing on mistyped.
import { z } from 'npm:zod@4.6.7'
import type { Json } from './database.ts'

export { z }

export function fromJson<T>(schema: z.ZodType<T>, value: Json | undefined, what: string): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success)
    throw new Error(`${what} answered in an unexpected shape: ${z.prettifyError(parsed.error)}`)
  return parsed.data
}

/**
 * A text column's value that its check constraint limits to `allowed`, typed as one of them; any
 * other value is a bug in the SQL or here, and fails loudly (a 500).
 */
export function known<T extends string>(allowed: readonly T[], value: string, what: string): T {
  const found = allowed.find((candidate) => candidate === value)
  if (found === undefined) throw new Error(`${what} holds '${value}', none of ${allowed.join(', ')}`)
  return found
}

/** Column types as to_jsonb writes them. */
export const timestamp = z.string()
export const nullableText = z.string().nullable()
export const nullableTimestamp = z.string().nullable()

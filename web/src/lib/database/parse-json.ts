import { z } from 'zod'

/**
 * A jsonb value (an RPC's result, a jsonb column) read as `schema` says. The generated types can only
 * call it `Json`; a value of another shape is a disagreement between the SQL and this app, reported
 * as an error rather than rendered wrong. Schemas here are plain z.object: keys the app does not know
 * are dropped, so a column added to the SQL does not break a deployed app (the tests catch it).
 */
export function parseJson<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success)
    throw new Error(`${what} came back in an unexpected shape: ${z.prettifyError(parsed.error)}`)
  return parsed.data
}

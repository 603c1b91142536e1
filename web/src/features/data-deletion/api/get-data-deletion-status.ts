import { FunctionsHttpError } from '@supabase/supabase-js'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'

const statusSchema = z.object({
  confirmation_code: z.string(),
  status: z.literal('completed'),
  requested_at: z.string(),
  accounts_deleted: z.number(),
})
export type DataDeletionStatus = z.infer<typeof statusSchema>

/** The code Meta showed the person: 32 hexadecimal characters (16 for requests made before). */
export const CODE_PATTERN = /^(?:[0-9A-Fa-f]{16}){1,2}$/

const LOOKUP_FAILED = 'Could not look up this request. Please try again in a moment.'
const TOO_MANY_LOOKUPS = 'Too many lookups from your address. Try again in a few minutes.'

/** GET {instagram-webhook}/data-deletion?code=: the request with that code; null when none has it. */
export async function getDataDeletionStatus(code: string): Promise<DataDeletionStatus | null> {
  let response: Awaited<ReturnType<typeof supabase.functions.invoke>>
  try {
    response = await supabase.functions.invoke(
      `instagram-webhook/data-deletion?code=${encodeURIComponent(code)}`,
      {
        method: 'GET',
      },
    )
  } catch {
    throw new Error(LOOKUP_FAILED)
  }
  if (response.error instanceof FunctionsHttpError && response.error.context.status === 404) return null
  if (response.error instanceof FunctionsHttpError && response.error.context.status === 429)
    throw new Error(TOO_MANY_LOOKUPS)
  if (response.error) throw new Error(LOOKUP_FAILED)
  return statusSchema.parse(response.data)
}

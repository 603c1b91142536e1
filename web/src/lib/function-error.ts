// Edge function errors arrive as FunctionsHttpError with the Response in `context`; the functions
// answer JSON {error: "..."} (style.md), which is the text worth showing.
import { FunctionsHttpError } from '@supabase/supabase-js'

/** The server's `error` text, or null when the body has none (or there was no response at all). */
export async function serverErrorText(error: unknown): Promise<string | null> {
  if (!(error instanceof FunctionsHttpError)) return null
  const response = error.context as Response
  try {
    const body = (await response.clone().json()) as { error?: unknown; message?: unknown }
    if (typeof body.error === 'string' && body.error) return body.error
    if (typeof body.message === 'string' && body.message) return body.message
  } catch {
    // Not JSON: fall through to the caller's default text.
  }
  return null
}

/** product.md §8 "Generic client error": the server's error field, else 'API Error: {status text}'. */
export async function apiErrorMessage(error: unknown): Promise<string> {
  const text = await serverErrorText(error)
  if (text) return text
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response
    return `API Error: ${response.statusText || response.status}`
  }
  return error instanceof Error ? error.message : 'An error occurred'
}

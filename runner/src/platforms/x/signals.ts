// Turns what X says (an API error code, an HTTP status, a toast or page text) into a stop signal.
// Pure: no browser or Node dependency.
import { firstMatch } from '../facts.ts'
import { type StopKind, type StopSignal, stopSignal } from '../types.ts'
import type { XFacts } from './facts.ts'

const KINDS: Record<string, StopKind> = {
  '88': 'rate_limit',
  '429': 'rate_limit',
  '226': 'automation',
  '326': 'locked',
  '32': 'unauthenticated',
  '349': 'cannot_message',
  '476': 'requires_verified',
  verify_identity: 'challenge',
  something_went_wrong: 'page_error',
}

export function xSignalFromCode(
  code: string | number,
  message: string,
  resetAt?: string,
): StopSignal | undefined {
  const kind = KINDS[String(code)]
  return kind ? stopSignal('x', kind, String(code), message, resetAt) : undefined
}

/** The first stop signal a page or toast text carries, if any (the facts' patterns, in order). */
export function xSignalFromText(facts: XFacts, text: string): StopSignal | undefined {
  const found = firstMatch(facts.texts.signals, text)
  return found ? xSignalFromCode(found.code, text.trim().slice(0, 300)) : undefined
}

/** The stop signal of an internal API answer: `{errors:[{code}]}` first, then the HTTP status. */
export function xSignalFromResponse(status: number, body: unknown, resetAt?: string): StopSignal | undefined {
  const errors = (body as { errors?: { code?: unknown; message?: unknown }[] } | null)?.errors
  for (const error of errors ?? []) {
    const signal = xSignalFromCode(String(error.code), String(error.message ?? ''), resetAt)
    if (signal) return signal
  }
  if (status === 429) return xSignalFromCode('429', 'Too Many Requests', resetAt)
  if (status === 401) return xSignalFromCode('32', 'Could not authenticate you.')
  return undefined
}

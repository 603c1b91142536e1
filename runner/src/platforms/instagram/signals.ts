// Instagram's stop signals from dialog texts and API answers, by the facts' patterns. Pure: no
// browser or Node dependency.
import { firstMatch } from '../facts.ts'
import { type StopKind, type StopSignal, stopSignal } from '../types.ts'
import type { InstagramFacts } from './facts.ts'

const KINDS: readonly StopKind[] = [
  'automation',
  'rate_limit',
  'cannot_message',
  'challenge',
  'unauthenticated',
]

export function igSignalFromText(facts: InstagramFacts, text: string): StopSignal | undefined {
  const found = firstMatch(facts.texts.signals, text)
  if (!found || !KINDS.includes(found.kind as StopKind)) return undefined
  return stopSignal('instagram', found.kind as StopKind, found.code, text.trim().slice(0, 300))
}

export function igSignalFromResponse(
  facts: InstagramFacts,
  status: number,
  body: unknown,
): StopSignal | undefined {
  const message = String((body as { message?: unknown } | null)?.message ?? '')
  const detail = String((body as { feedback_message?: unknown } | null)?.feedback_message ?? '')
  const signal = igSignalFromText(facts, `${message} ${detail}`.trim())
  if (signal) return signal
  if (status === 429) return stopSignal('instagram', 'rate_limit', '429', 'Too Many Requests')
  if (status === 401)
    return stopSignal('instagram', 'unauthenticated', 'login_required', 'Instagram asks to log in again.')
  return undefined
}

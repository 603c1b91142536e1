// Instagram's stop signals from dialog texts and API answers. Pure: no dependencies.
import { type StopSignal, stopSignal } from '../types.ts'
import { IG_SIGNAL_TEXTS } from './selectors.ts'

export function igSignalFromText(text: string): StopSignal | undefined {
  for (const { pattern, kind, code } of IG_SIGNAL_TEXTS) {
    if (pattern.test(text)) return stopSignal('instagram', kind, code, text.trim().slice(0, 300))
  }
  return undefined
}

export function igSignalFromResponse(status: number, body: unknown): StopSignal | undefined {
  const message = String((body as { message?: unknown } | null)?.message ?? '')
  const detail = String((body as { feedback_message?: unknown } | null)?.feedback_message ?? '')
  const signal = igSignalFromText(`${message} ${detail}`.trim())
  if (signal) return signal
  if (status === 429) return stopSignal('instagram', 'rate_limit', '429', 'Too Many Requests')
  if (status === 401)
    return stopSignal('instagram', 'unauthenticated', 'login_required', 'Instagram asks to log in again.')
  return undefined
}

// Stripe's test cards as the sandbox knows them, and the checks and texts of a card form.
import { StripeApiError } from './errors.ts'
import type { CardBehaviour } from './store.ts'

export interface TestCard {
  behaviour: CardBehaviour
  brand: string
}

/** Stripe's documented test card numbers that this sandbox knows. */
const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { behaviour: 'succeeds', brand: 'visa' },
  '5555555555554444': { behaviour: 'succeeds', brand: 'mastercard' },
  '4000000000000002': { behaviour: 'declined', brand: 'visa' },
  '4000000000009995': { behaviour: 'insufficient_funds', brand: 'visa' },
  '4000000000000341': { behaviour: 'charge_fails', brand: 'visa' },
}

export class CardError extends StripeApiError {
  constructor(message: string, code: string, declineCode?: string) {
    super(402, 'card_error', message, code, undefined, declineCode ? { decline_code: declineCode } : {})
  }
}

function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** Checks a card as Stripe's checkout would; throws CardError with Stripe's texts. */
export function readTestCard(
  number: string,
  expiry: string,
  cvc: string,
  now: number,
): TestCard & { last4: string } {
  const digits = number.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    throw new CardError('Your card number is invalid.', 'invalid_number')
  }
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry)
  const month = Number(match?.[1])
  const year = match?.[2]?.length === 2 ? 2000 + Number(match[2]) : Number(match?.[2])
  if (!match || month < 1 || month > 12)
    throw new CardError("Your card's expiration date is incomplete.", 'incomplete_expiry')
  const nowDate = new Date(now * 1000)
  if (
    year < nowDate.getUTCFullYear() ||
    (year === nowDate.getUTCFullYear() && month < nowDate.getUTCMonth() + 1)
  ) {
    throw new CardError("Your card's expiration year is in the past.", 'invalid_expiry_year')
  }
  if (!/^\d{3,4}$/.test(cvc.trim()))
    throw new CardError("Your card's security code is incomplete.", 'incomplete_cvc')
  const known = TEST_CARDS[digits] ?? { behaviour: 'succeeds', brand: 'visa' }
  return { ...known, last4: digits.slice(-4) }
}

export function declineFor(behaviour: CardBehaviour): CardError | null {
  if (behaviour === 'declined')
    return new CardError('Your card was declined.', 'card_declined', 'generic_decline')
  if (behaviour === 'insufficient_funds') {
    return new CardError('Your card has insufficient funds.', 'card_declined', 'insufficient_funds')
  }
  if (behaviour === 'charge_fails')
    return new CardError('Your card was declined.', 'card_declined', 'generic_decline')
  return null
}

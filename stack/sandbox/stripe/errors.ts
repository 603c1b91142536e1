// Errors in the exact JSON shape Stripe answers with: `{error: {type, code, message, param}}`.
// stripe-node turns `type` into its error classes (StripeInvalidRequestError, StripeCardError, …).

export type StripeErrorType =
  | 'invalid_request_error'
  | 'card_error'
  | 'api_error'
  | 'idempotency_error'
  | 'authentication_error'

export class StripeApiError extends Error {
  override name = 'StripeApiError'
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }

  toJSON(): { error: Record<string, unknown> } {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code ? { code: this.code } : {}),
        ...(this.param ? { param: this.param } : {}),
        ...this.extra,
      },
    }
  }
}

const OBJECT_NAMES: Record<string, string> = {
  cus: 'customer',
  sub: 'subscription',
  in: 'invoice',
  price: 'price',
  prod: 'product',
  cs: 'checkout.session',
  evt: 'event',
  bps: 'billing_portal.session',
}

export function resourceMissing(id: string, param = 'id'): StripeApiError {
  const prefix = id.split('_')[0] ?? ''
  const name = OBJECT_NAMES[prefix] ?? 'object'
  return new StripeApiError(
    404,
    'invalid_request_error',
    `No such ${name}: '${id}'`,
    'resource_missing',
    param,
  )
}

export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', message, code, param)
}

export function unknownUrl(method: string, path: string): StripeApiError {
  return new StripeApiError(
    404,
    'invalid_request_error',
    `Unrecognized request URL (${method}: ${path}). The Stripe sandbox implements only the calls Reachflow makes.`,
  )
}

// Request parameters of every implemented endpoint, validated the way Stripe validates them:
// unknown parameters, missing required ones and bad values are 400s naming the parameter in
// Stripe's bracket form (`line_items[0][price_data][currency]`).
import { z } from 'zod'
import { invalidRequest, type StripeApiError } from './errors.ts'

const int = (min = 0) =>
  z
    .string()
    .regex(/^-?\d+$/, 'integer')
    .transform(Number)
    .pipe(z.number().int().min(min))
const bool = z.enum(['true', 'false']).transform((value) => value === 'true')
const text = (max = 5000) => z.string().max(max)
const metadata = z.record(z.string().max(40), z.string().max(500))
const expand = z.array(z.string()).max(20).optional()
const interval = z.enum(['day', 'week', 'month', 'year'])
const recurring = z.strictObject({ interval, interval_count: int(1).optional() })
const productData = z.strictObject({
  name: text(250).min(1),
  description: text().optional(),
  metadata: metadata.optional(),
})
/** subscriptions.update and create_preview `items[]`: an existing item's new quantity and price. */
const subscriptionItems = z
  .array(
    z.strictObject({
      id: z.string().optional(),
      quantity: int(0).optional(),
      price: z.string().optional(),
      price_data: z
        .strictObject({
          currency: z.string().length(3),
          unit_amount: int(0),
          product: z.string(),
          recurring: recurring,
        })
        .optional(),
    }),
  )
  .max(20)
const pagination = {
  limit: int(1).pipe(z.number().max(100)).optional(),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
  expand,
}

export const schemas = {
  expandOnly: z.strictObject({ expand }),
  customerCreate: z.strictObject({
    email: text(512).optional(),
    name: text(256).optional(),
    description: text().optional(),
    phone: text(20).optional(),
    metadata: metadata.optional(),
    expand,
  }),
  customerUpdate: z.strictObject({
    email: text(512).optional(),
    name: text(256).optional(),
    description: text().optional(),
    phone: text(20).optional(),
    metadata: metadata.optional(),
    expand,
  }),
  customerList: z.strictObject({ ...pagination, email: text(512).optional() }),
  search: z.strictObject({
    query: z.string().min(1),
    limit: pagination.limit,
    page: z.string().optional(),
    expand,
  }),
  productCreate: z.strictObject({
    name: text(250).min(1),
    description: text().optional(),
    active: bool.optional(),
    metadata: metadata.optional(),
    expand,
  }),
  priceCreate: z.strictObject({
    currency: z.string().length(3),
    unit_amount: int(0),
    product: z.string().optional(),
    product_data: productData.optional(),
    recurring: recurring.optional(),
    nickname: text().optional(),
    lookup_key: text(200).optional(),
    active: bool.optional(),
    metadata: metadata.optional(),
    expand,
  }),
  checkoutCreate: z.strictObject({
    mode: z.enum(['subscription', 'payment', 'setup']),
    line_items: z
      .array(
        z.strictObject({
          price: z.string().optional(),
          price_data: z
            .strictObject({
              currency: z.string().length(3),
              unit_amount: int(0),
              product: z.string().optional(),
              product_data: productData.optional(),
              recurring: recurring.optional(),
            })
            .optional(),
          quantity: int(1).optional(),
        }),
      )
      .min(1),
    success_url: text().url(),
    cancel_url: text().url().optional(),
    customer: z.string().optional(),
    customer_email: z.email().optional(),
    client_reference_id: text(200).optional(),
    metadata: metadata.optional(),
    subscription_data: z
      .strictObject({
        trial_period_days: int(1).pipe(z.number().max(730)).optional(),
        metadata: metadata.optional(),
        description: text(500).optional(),
      })
      .optional(),
    allow_promotion_codes: bool.optional(),
    billing_address_collection: z.enum(['auto', 'required']).optional(),
    payment_method_types: z.array(z.string()).optional(),
    locale: z.string().optional(),
    expand,
  }),
  checkoutList: z.strictObject({
    ...pagination,
    customer: z.string().optional(),
    subscription: z.string().optional(),
  }),
  subscriptionList: z.strictObject({
    ...pagination,
    customer: z.string().optional(),
    status: z
      .enum([
        'active',
        'past_due',
        'unpaid',
        'canceled',
        'incomplete',
        'incomplete_expired',
        'trialing',
        'paused',
        'all',
        'ended',
      ])
      .optional(),
    price: z.string().optional(),
  }),
  subscriptionUpdate: z.strictObject({
    items: subscriptionItems.optional(),
    proration_date: int().optional(),
    payment_behavior: z
      .enum(['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete'])
      .optional(),
    cancel_at_period_end: bool.optional(),
    metadata: metadata.optional(),
    description: text(500).optional(),
    proration_behavior: z.enum(['create_prorations', 'none', 'always_invoice']).optional(),
    cancellation_details: z
      .strictObject({ comment: text().optional(), feedback: z.string().optional() })
      .optional(),
    expand,
  }),
  subscriptionCancel: z.strictObject({
    invoice_now: bool.optional(),
    prorate: bool.optional(),
    cancellation_details: z
      .strictObject({ comment: text().optional(), feedback: z.string().optional() })
      .optional(),
    expand,
  }),
  invoicePreview: z.strictObject({
    customer: z.string().optional(),
    subscription: z.string(),
    subscription_details: z
      .strictObject({
        items: subscriptionItems.optional(),
        proration_behavior: z.enum(['create_prorations', 'none', 'always_invoice']).optional(),
        proration_date: int().optional(),
      })
      .optional(),
    expand,
  }),
  invoiceList: z.strictObject({
    ...pagination,
    customer: z.string().optional(),
    subscription: z.string().optional(),
    status: z.enum(['draft', 'open', 'paid', 'uncollectible', 'void']).optional(),
  }),
  portalCreate: z.strictObject({
    customer: z.string(),
    return_url: text().url().optional(),
    configuration: z.string().optional(),
    locale: z.string().optional(),
    expand,
  }),
  eventList: z.strictObject({ ...pagination, type: z.string().optional() }),
}

/** `line_items[0][price_data]` from ['line_items', 0, 'price_data']. */
function paramName(path: ReadonlyArray<PropertyKey>): string {
  const [head, ...rest] = path.map(String)
  return `${head ?? ''}${rest.map((p) => `[${p}]`).join('')}`
}

function toStripeError(issue: z.core.$ZodIssue): StripeApiError {
  const param = paramName(issue.path)
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? ''
    const name = param ? `${param}[${key}]` : key
    return invalidRequest(`Received unknown parameter: ${name}`, name, 'parameter_unknown')
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing')
  }
  if (issue.code === 'invalid_value') {
    const options = issue.values.map(String).join(', ')
    return invalidRequest(`Invalid ${param}: must be one of ${options}`, param, 'parameter_invalid_string')
  }
  if (issue.message === 'integer' || (issue.code === 'invalid_type' && issue.expected === 'number')) {
    return invalidRequest(`Invalid integer: ${String(issue.input)}`, param, 'parameter_invalid_integer')
  }
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    const bound = issue.code === 'too_small' ? `at least ${issue.minimum}` : `at most ${issue.maximum}`
    const what =
      issue.origin === 'string'
        ? `${bound} characters long`
        : issue.origin === 'array'
          ? `${bound} items`
          : bound
    return invalidRequest(`Invalid ${param}: must be ${what}`, param, 'parameter_invalid_empty')
  }
  if (issue.code === 'invalid_format') {
    return invalidRequest(
      `Not a valid ${issue.format === 'url' ? 'URL' : issue.format}`,
      param,
      'url_invalid',
    )
  }
  return invalidRequest(`Invalid ${param}: ${issue.message}`, param)
}

/** Validates parsed form parameters; throws a Stripe-shaped 400 for the first problem. */
export function readParams<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  throw issue ? toStripeError(issue) : invalidRequest('Invalid request')
}

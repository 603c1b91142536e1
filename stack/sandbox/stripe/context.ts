// What every /v1 handler gets, and the lookup that turns a missing id into Stripe's 404.
import type { Billing } from './billing.ts'
import { resourceMissing } from './errors.ts'
import type { FormObject } from './form.ts'
import type { Store } from './store.ts'
import type { WebhookDispatcher } from './webhooks.ts'

export interface ApiContext {
  store: Store
  billing: Billing
  webhooks: WebhookDispatcher
  publicUrl: string
}

export type Handler = (ctx: ApiContext, params: FormObject, id: string) => unknown

export function must<T>(value: T | undefined, id: string): T {
  if (value === undefined) throw resourceMissing(id)
  return value
}

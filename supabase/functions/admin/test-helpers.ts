// For the admin function's Deno tests only: the handler in-process against the test stack, an
// admin made the only way one can be (app_metadata set with the service role), and calls as the
// gateway would hand them over.
import {
  functionRequest,
  jsonOf,
  newCustomer,
  serviceDb,
  stackEnv,
  type TestCustomer,
} from '../_shared/test-stack.ts'
import { createAdminHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

export const handler = () => createAdminHandler(defaultDeps(stackEnv()))

/** A fresh customer made an admin by the service role (Auth's admin API). */
export async function newAdmin(tag = 'admin'): Promise<TestCustomer> {
  const customer = await newCustomer(tag)
  const { error } = await serviceDb().auth.admin.updateUserById(customer.id, {
    app_metadata: { role: 'admin' },
  })
  if (error) throw error
  return customer
}

export interface Answer<T = Record<string, unknown>> {
  status: number
  body: T
}

/** Calls `/functions/v1/admin<path>` in-process: the status and JSON body. */
export async function call<T = Record<string, unknown>>(
  handle: (req: Request) => Promise<Response>,
  path: string,
  options: { token?: string | null; method?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  const response = await handle(functionRequest('admin', path, options))
  return { status: response.status, body: await jsonOf<T>(response) }
}

// Every write goes through the `api` edge function (product.md §7 "Product backend"). This is the one
// door to it: it returns the JSON body, or throws an ApiError that says whether the server answered
// (with its `error` text) or the request never got an answer, so each caller can show the product's
// "Failed to X: {error}" or "Failed to X. Please try again." texts. A call names its route
// (`callApi('POST /v2/campaigns/:id/launch', { params: { id } })`) and gets the answer that route's
// entry in @reachflow/domain's ApiEndpoints names: no caller picks a type of its own.
import {
  type ApiEndpoints,
  type ApiResponse,
  type ApiRoute,
  type CallArgs,
  requestLine,
} from '@reachflow/domain'
import { FunctionsHttpError } from '@supabase/supabase-js'
import { serverErrorText } from './function-error'
import { supabase } from './supabase'

export class ApiError extends Error {
  /** The server's `error` text; null when there was no answer (network) or no text in it. */
  readonly serverText: string | null
  readonly status: number | null

  constructor(message: string, serverText: string | null, status: number | null) {
    super(message)
    this.name = 'ApiError'
    this.serverText = serverText
    this.status = status
  }

  /** True when no response arrived at all (offline, DNS, the function never answered). */
  get isNetwork(): boolean {
    return this.status === null
  }
}

/** Calls `{api}/<path>` of the route; the body is sent as JSON. */
export async function callApi<K extends ApiRoute>(
  route: K,
  ...[options]: CallArgs<ApiEndpoints, K>
): Promise<ApiResponse<K>> {
  const { method, path } = requestLine(route, options?.params)
  let response: Awaited<ReturnType<typeof supabase.functions.invoke<ApiResponse<K>>>>
  try {
    response = await supabase.functions.invoke<ApiResponse<K>>(`api/${path}`, {
      method,
      body: options?.body as Record<string, unknown> | undefined,
    })
  } catch (error) {
    throw new ApiError(error instanceof Error ? error.message : 'Network error', null, null)
  }
  if (response.error) {
    if (response.error instanceof FunctionsHttpError) {
      const status = (response.error.context as Response).status
      const text = await serverErrorText(response.error)
      throw new ApiError(
        text ?? `API Error: ${(response.error.context as Response).statusText || status}`,
        text,
        status,
      )
    }
    throw new ApiError(response.error.message, null, null)
  }
  // The function builds this answer with `satisfies` the route's type; tests/function-answers.test.ts
  // checks the real answers against it.
  return response.data as ApiResponse<K>
}

/**
 * product.md §8 action texts: "{action}: {server error or Unknown error}" when the server answered,
 * "{action}. Please try again." when nothing came back.
 */
export function actionErrorText(action: string, error: unknown): string {
  if (error instanceof ApiError) {
    return error.isNetwork
      ? `${action}. Please try again.`
      : `${action}: ${error.serverText ?? 'Unknown error'}`
  }
  return `${action}: ${error instanceof Error && error.message ? error.message : 'Unknown error'}`
}

/** product.md §8 "Error testing account: {message}" and its kin: the server's text, else the error's message. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverText ?? error.message
  return error instanceof Error ? error.message : 'An error occurred'
}

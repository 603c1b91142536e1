import { type ApiResponse, parseProxy } from '@reachflow/domain'
import { z } from 'zod'
import { serverErrorText } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'
import { INVALID_COOKIES, readCookieInput } from './cookie-input'

export const MISSING_DETAILS = 'Please fill in all required account details'
export const PASSWORD_REQUIRED = 'Password is required for Instagram accounts'
export const COOKIES_REQUIRED = 'Cookies are required for Twitter accounts'
export { INVALID_COOKIES }
export const PASSCODE_FORMAT = 'The X Chat passcode must be 4 digits'
export const PROXY_FORMAT = 'Proxy URL must look like user:pass@host:port'

/** The connect form; the same schema turns it into the product.md §7 POST /social-accounts body. */
export const connectAccountSchema = z
  .object({
    platform: z.string().trim(),
    username: z
      .string()
      .trim()
      .transform((name) => name.replace(/^@/, '')),
    password: z.string(),
    secretKey: z.string().trim(),
    cookies: z.string().trim(),
    proxyUrl: z.string().trim(),
    /** X only: the 4-digit X Chat passcode, so the runner can open encrypted chats. */
    chatPasscode: z.string().trim().optional(),
  })
  .superRefine((form, ctx) => {
    if (!form.platform || !form.username) {
      ctx.addIssue({ code: 'custom', message: MISSING_DETAILS, path: ['username'] })
      return
    }
    if (form.platform === 'instagram' && !form.password) {
      ctx.addIssue({ code: 'custom', message: PASSWORD_REQUIRED, path: ['password'] })
    }
    if (form.platform === 'twitter') {
      if (!form.cookies) ctx.addIssue({ code: 'custom', message: COOKIES_REQUIRED, path: ['cookies'] })
      else {
        const cookies = readCookieInput(form.cookies)
        if (!cookies.ok) ctx.addIssue({ code: 'custom', message: cookies.message, path: ['cookies'] })
      }
      if (form.chatPasscode && !/^\d{4}$/.test(form.chatPasscode))
        ctx.addIssue({ code: 'custom', message: PASSCODE_FORMAT, path: ['chatPasscode'] })
    }
    // The same parser as the api function (host and port checks with DNS happen there).
    if (form.proxyUrl && !parseProxy(form.proxyUrl)) {
      ctx.addIssue({ code: 'custom', message: PROXY_FORMAT, path: ['proxyUrl'] })
    }
  })

export type ConnectAccountForm = z.input<typeof connectAccountSchema>

/** The first validation message for a form, or null when it can be submitted. */
export function connectFormProblem(form: ConnectAccountForm): string | null {
  return connectFormIssue(form)?.message ?? null
}

/** The first validation problem and the field it belongs to, or null when the form can be submitted. */
export function connectFormIssue(form: ConnectAccountForm): { field: string; message: string } | null {
  const result = connectAccountSchema.safeParse(form)
  if (result.success) return null
  const issue = result.error.issues[0]
  return { field: String(issue?.path[0] ?? 'username'), message: issue?.message ?? MISSING_DETAILS }
}

/**
 * Whether a form's problem is said under its field: a field says what is wrong with what was typed
 * in it; a missing value is said beside the disabled button instead.
 */
export function shownAtField(form: ConnectAccountForm, problem: string | null): boolean {
  if (!problem) return false
  if (/username/i.test(problem)) return form.username !== ''
  if (/proxy/i.test(problem)) return Boolean(form.proxyUrl)
  if (/cookie/i.test(problem)) return form.cookies.trim() !== ''
  if (/passcode/i.test(problem)) return Boolean(form.chatPasscode)
  if (/password/i.test(problem)) return form.password !== ''
  return false
}

/** The cookies as the request carries them (validated by the schema before this is called). */
function cookieBody(text: string): unknown {
  const cookies = readCookieInput(text)
  if (!cookies.ok) throw new Error(cookies.message)
  return cookies.body
}

/** POST {api}/social-accounts; throws with the product.md §8 texts. */
export async function connectAccount(form: ConnectAccountForm): Promise<{ id: string; username: string }> {
  const values = connectAccountSchema.parse(form)
  const authData =
    values.platform === 'instagram'
      ? { password: values.password, secretKey: values.secretKey || null }
      : values.platform === 'twitter'
        ? { cookies: cookieBody(values.cookies), chatPasscode: values.chatPasscode || null }
        : {}
  type Created = ApiResponse<'POST /social-accounts'> & { error?: string }
  let response: Awaited<ReturnType<typeof supabase.functions.invoke<Created>>>
  try {
    response = await supabase.functions.invoke<Created>('api/social-accounts', {
      body: {
        platform: values.platform,
        username: values.username,
        authData,
        proxyUrl: values.proxyUrl || null,
      },
    })
  } catch {
    throw new Error('Failed to add account. Please try again.')
  }
  if (response.error) {
    const text = await serverErrorText(response.error)
    if (text === null && response.error.name !== 'FunctionsHttpError')
      throw new Error('Failed to add account. Please try again.')
    throw new Error(`Failed to add account: ${text ?? 'Unknown error'}`)
  }
  if (!response.data || response.data.error) {
    throw new Error(`Failed to add account: ${response.data?.error ?? 'Unknown error'}`)
  }
  return response.data
}

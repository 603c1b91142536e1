import { parseProxy } from '@shared/proxy'
import { z } from 'zod'
import { serverErrorText } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'

export const MISSING_DETAILS = 'Please fill in all required account details'
export const PASSWORD_REQUIRED = 'Password is required for Instagram accounts'
export const COOKIES_REQUIRED = 'Cookies are required for Twitter accounts'
export const INVALID_COOKIES = 'Invalid cookie format or validation failed'
export const PASSCODE_FORMAT = 'The X Chat passcode must be 4 digits'
export const PROXY_FORMAT = 'Proxy URL must look like user:pass@host:port'

/** The connect form; the same schema turns it into the spec §7 POST /social-accounts body. */
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
      else if (parseCookies(form.cookies) === undefined)
        ctx.addIssue({ code: 'custom', message: INVALID_COOKIES, path: ['cookies'] })
      if (form.chatPasscode && !/^\d{4}$/.test(form.chatPasscode))
        ctx.addIssue({ code: 'custom', message: PASSCODE_FORMAT, path: ['chatPasscode'] })
    }
    // The same parser as the api function (host and port checks with DNS happen there).
    if (form.proxyUrl && !parseProxy(form.proxyUrl)) {
      ctx.addIssue({ code: 'custom', message: PROXY_FORMAT, path: ['proxyUrl'] })
    }
  })

export type ConnectAccountForm = z.input<typeof connectAccountSchema>

/** The pasted cookies as JSON, or undefined when they do not parse (spec §5). */
export function parseCookies(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The first validation message for a form, or null when it can be submitted. */
export function connectFormProblem(form: ConnectAccountForm): string | null {
  const result = connectAccountSchema.safeParse(form)
  return result.success ? null : (result.error.issues[0]?.message ?? MISSING_DETAILS)
}

/** POST {api}/social-accounts; throws with the spec §8 texts. */
export async function connectAccount(form: ConnectAccountForm): Promise<{ id: string; username: string }> {
  const values = connectAccountSchema.parse(form)
  const authData =
    values.platform === 'instagram'
      ? { password: values.password, secretKey: values.secretKey || null }
      : values.platform === 'twitter'
        ? { cookies: parseCookies(values.cookies), chatPasscode: values.chatPasscode || null }
        : {}
  type Created = { id: string; username: string; error?: string }
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

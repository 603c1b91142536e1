import { z } from 'zod'

/** Spec §5: both fields required, one message for either missing; no other rule is imposed. */
export const MISSING_CREDENTIALS = 'Please enter both email and password'

export const loginSchema = z.object({
  email: z.string().trim().min(1, MISSING_CREDENTIALS),
  password: z.string().min(1, MISSING_CREDENTIALS),
})

export type LoginInput = z.infer<typeof loginSchema>

export type AuthResult = { ok: true } | { ok: false; error: string }

export const UNEXPECTED_ERROR = 'An unexpected error occurred. Please try again.'

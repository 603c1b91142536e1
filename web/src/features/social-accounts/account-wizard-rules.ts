// product.md §5 "Account wizard": step 1 a platform that is active and not coming soon; step 2 a
// non-empty trimmed username (without @) and an optional proxy user:pass@host:port; step 3 an
// Instagram password or X cookies that parse as JSON; the review is free.
import {
  COOKIES_REQUIRED,
  type ConnectAccountForm,
  connectAccountSchema,
  INVALID_COOKIES,
  MISSING_DETAILS,
  PASSWORD_REQUIRED,
  shownAtField,
} from '@/lib/accounts/connect-account'
import type { Platform } from '@/lib/accounts/types'

export const ACCOUNT_STEPS = [
  { title: 'Platform' },
  { title: 'Account' },
  { title: 'Authentication' },
  { title: 'Review' },
] as const

export const CHOOSE_PLATFORM = 'Choose a platform to connect'
export const USERNAME_REQUIRED = 'Enter the username (without @)'

export const emptyAccountForm: Required<ConnectAccountForm> = {
  platform: '',
  username: '',
  password: '',
  secretKey: '',
  cookies: '',
  proxyUrl: '',
  chatPasscode: '',
}

const STEP_FIELDS: readonly (readonly string[])[] = [
  [],
  ['username', 'proxyUrl'],
  ['password', 'cookies', 'chatPasscode'],
  [],
]

export function isConnectable(platform: Platform | undefined): boolean {
  return Boolean(platform?.is_active && !platform.coming_soon)
}

/** The first problem of a step, or null when the wizard may go on. */
export function accountStepProblem(
  form: ConnectAccountForm,
  step: number,
  platforms: readonly Platform[],
): string | null {
  if (!isConnectable(platforms.find((p) => p.name === form.platform))) return CHOOSE_PLATFORM
  if (step === 0) return null
  if (form.username.trim().replace(/^@/, '') === '') return USERNAME_REQUIRED
  const result = connectAccountSchema.safeParse(form)
  if (result.success) return null
  const owned = STEP_FIELDS.slice(0, step + 1).flat()
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '')
    if (issue.message === MISSING_DETAILS) return USERNAME_REQUIRED
    if (owned.includes(field)) return issue.message
  }
  return null
}

export { COOKIES_REQUIRED, INVALID_COOKIES, PASSWORD_REQUIRED, shownAtField }

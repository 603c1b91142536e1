// Update-password validation: the same minimum as Auth (supabase/config.toml
// `minimum_password_length`), and the confirmation must match.

export const MIN_PASSWORD_LENGTH = 6

export const passwordMessages = {
  missing: 'Please enter a new password',
  tooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  missingConfirm: 'Please confirm your new password',
  mismatch: 'Passwords do not match',
} as const

export interface NewPasswordErrors {
  password?: string
  confirm?: string
}

export function validateNewPassword(password: string, confirm: string): NewPasswordErrors {
  const errors: NewPasswordErrors = {}
  if (password === '') errors.password = passwordMessages.missing
  else if (password.length < MIN_PASSWORD_LENGTH) errors.password = passwordMessages.tooShort
  if (confirm === '') errors.confirm = passwordMessages.missingConfirm
  else if (password !== confirm) errors.confirm = passwordMessages.mismatch
  return errors
}

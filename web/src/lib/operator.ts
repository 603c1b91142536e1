/** Operators carry `app_metadata.role = 'admin'` (set by the service, never by the user). */
export function isOperator(user: { app_metadata?: Record<string, unknown> } | null | undefined): boolean {
  return user?.app_metadata?.role === 'admin'
}

// Every admin action leaves a line in the system log (service "api"), so the Logs tab shows who
// paused a queue, retried a job or restarted a runner. A failed audit write must not undo the
// action the operator already saw succeed, so it is logged and swallowed.
import type { Caller } from '../_shared/auth.ts'
import type { SupabaseClient } from '../_shared/clients.ts'

export async function writeAuditLog(
  db: SupabaseClient,
  admin: Caller,
  message: string,
  metadata: Record<string, unknown> = {},
): Promise<void> {
  const { error } = await db.from('system_logs').insert({
    level: 'info',
    service: 'api',
    message: `${message} (by ${admin.email ?? admin.id})`,
    metadata: { ...metadata, adminId: admin.id },
  })
  if (error) console.error('Could not write the admin audit log line', error)
}

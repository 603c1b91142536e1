import { History } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '@/config/paths'
import { useWorkspaceRole } from '@/lib/workspace/use-workspace-role'
import { canReadActivity } from '../can-read-activity'

/**
 * The header's way to the Activity page, for the workspace's owners and admins only. It reads the role
 * from the one role hook, not a query, because it stands in headers of pages without a query client.
 */
export function ActivityNavLink() {
  const { role } = useWorkspaceRole()
  if (!canReadActivity(role)) return null
  return (
    <Link
      to={paths.activity}
      className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
    >
      <History className="size-4" aria-hidden="true" />
      <span className="max-sm:sr-only">Activity</span>
    </Link>
  )
}

import { History } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '@/config/paths'
import { canReadActivity } from '../api/get-my-role'
import { useMyRole } from '../hooks/use-activity'

/** The header's way to the Activity page, for the workspace's owners and admins only. */
export function ActivityNavLink() {
  const role = useMyRole()
  if (!canReadActivity(role.data)) return null
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

// Above the dashboard (and so its Campaigns tab): a workspace without a plan sends nothing, and every
// member is told so and who can fix it; the owner gets the way to the billing page.
import { AlertTriangle } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '@/config/paths'
import { useWorkspacePlan } from '../hooks/use-workspace-plan'

export function NoPlanBanner() {
  const plan = useWorkspacePlan()
  if (!plan.data || plan.data.sends) return null
  const owner = plan.data.ownerName ?? 'The owner'
  return (
    <div
      role="status"
      data-testid="no-plan-banner"
      className="flex flex-col gap-3 rounded-xl bg-amber-50 px-4 py-3.5 ring-1 ring-amber-200 ring-inset sm:flex-row sm:items-center"
    >
      <div className="flex min-w-0 flex-1 gap-3">
        <AlertTriangle className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
        <p className="text-sm text-amber-900">
          This workspace has no active plan, so nothing is sent. {owner} (owner) can choose a plan.
        </p>
      </div>
      {plan.data.isOwner && (
        <Link
          to={paths.billing}
          className="self-start rounded-lg bg-amber-600 px-3 py-1.5 text-sm font-semibold whitespace-nowrap text-white hover:bg-amber-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-600 sm:self-auto"
        >
          Choose a plan
        </Link>
      )}
    </div>
  )
}

// The billing page for a member who is not the owner: only the owner may buy, change or cancel the
// workspace's plan, so instead of buttons the page says who that is and what the plan is now.
import { UserRound } from 'lucide-react'
import { planName } from '@/lib/plans'
import type { WorkspacePlan } from '../api/get-workspace-plan'
import { SubscriptionStatusPill } from './pills'

export function OwnerManagesBilling({ workspace }: { workspace: WorkspacePlan }) {
  const owner = workspace.ownerName ?? 'The owner'
  return (
    <section
      aria-label="Who manages billing"
      data-testid="owner-manages-billing"
      className="rounded-2xl bg-white p-6 ring-1 ring-slate-200"
    >
      <div className="flex gap-4">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          <UserRound className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 space-y-2">
          <p className="font-semibold text-slate-900">
            {owner} (owner) manages the plan and payments of {workspace.name}.
          </p>
          <p className="text-sm text-slate-600">
            {workspace.sends
              ? 'Ask them to change the plan or see the invoices.'
              : 'This workspace has no active plan, so nothing is sent. Ask them to choose a plan.'}
          </p>
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <span>Plan: {planName(workspace.planType)}</span>
            {workspace.status !== 'none' && <SubscriptionStatusPill status={workspace.status} />}
          </p>
        </div>
      </div>
    </section>
  )
}

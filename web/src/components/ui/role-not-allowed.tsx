import { ROLE_NOT_ALLOWED } from '@reachflow/domain'
import { ShieldOff } from 'lucide-react'
import { Link } from 'react-router'
import { buttonClasses } from './button'

/** What a page shows a member whose role may not open it, instead of a blank page. */
export function RoleNotAllowed({ backHref, backLabel }: { backHref: string; backLabel: string }) {
  return (
    <main className="mx-auto flex max-w-md flex-col items-center px-4 py-20 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-600">
        <ShieldOff className="size-6" aria-hidden="true" />
      </span>
      <h1 className="mt-4 text-lg font-semibold text-slate-900">{ROLE_NOT_ALLOWED}</h1>
      <p className="mt-2 text-sm text-slate-600">Ask an owner or admin of this workspace if you need it.</p>
      <Link to={backHref} className={buttonClasses('secondary', 'md', 'mt-6')}>
        {backLabel}
      </Link>
    </main>
  )
}

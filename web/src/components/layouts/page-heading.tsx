import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '@/config/paths'

/** The top of a page reached from the dashboard (settings, billing): the way back, the title, what it is for. */
export function PageHeading({ title, description }: { title: string; description: string }) {
  return (
    <>
      <Link
        to={paths.dashboard}
        className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-900"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Dashboard
      </Link>
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      <p className="mt-1 text-slate-600">{description}</p>
    </>
  )
}

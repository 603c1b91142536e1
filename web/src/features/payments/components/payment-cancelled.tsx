import { ArrowLeft, LifeBuoy, RotateCcw, XCircle } from 'lucide-react'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { links, mailto } from '@/config/links'
import { paths } from '@/config/paths'

/** /cancel: checkout was abandoned; nothing was charged (product.md §2). */
export function PaymentCancelled() {
  return (
    <div className="text-center">
      <span className="mx-auto flex size-16 items-center justify-center rounded-full bg-amber-100">
        <XCircle className="size-8 text-amber-600" aria-hidden="true" />
      </span>
      <h1 className="mt-5 text-3xl font-bold tracking-tight text-slate-900">Payment Cancelled</h1>
      <p className="mt-2 text-slate-600">
        No charge was made. Your free trial is still waiting for you whenever you are ready.
      </p>
      <div className="mt-8 flex flex-col gap-3">
        <Link to={`${paths.home}#pricing`} className={buttonClasses('primary', 'lg', 'w-full')}>
          <RotateCcw className="size-4" aria-hidden="true" />
          Try Payment Again
        </Link>
        <a
          href={mailto(links.supportEmail, 'Help with my payment')}
          className={buttonClasses('secondary', 'lg', 'w-full')}
        >
          <LifeBuoy className="size-4" aria-hidden="true" />
          Contact Support
        </a>
        <Link to={paths.home} className={buttonClasses('ghost', 'lg', 'w-full')}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to Home
        </Link>
      </div>
    </div>
  )
}

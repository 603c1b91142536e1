import { CheckCircle2, Quote } from 'lucide-react'
import type { ReactNode } from 'react'
import { Logo } from '@/components/ui/logo'

const points = [
  'Up to 450 DMs per day, per account',
  'AI-written sequences with follow-ups',
  'Runs 24/7 in the cloud',
]

/** Two-column page for sign-in and password pages: the form, and a brand panel on wide screens. */
export function AuthLayout({ children, banner }: { children: ReactNode; banner?: ReactNode }) {
  return (
    <div className="flex min-h-screen bg-white">
      <div className="flex flex-1 flex-col px-4 py-8 sm:px-6 lg:flex-none lg:px-20 xl:px-24">
        <Logo />
        <main className="mx-auto flex w-full max-w-sm flex-1 flex-col justify-start py-10 sm:justify-center lg:w-96">
          {banner}
          {children}
        </main>
      </div>
      <aside className="relative hidden flex-1 overflow-hidden bg-slate-950 lg:flex lg:flex-col lg:justify-center lg:px-16">
        <div
          aria-hidden="true"
          className="absolute -top-32 -right-32 size-[32rem] rounded-full bg-brand-600/40 blur-3xl"
        />
        <div
          aria-hidden="true"
          className="absolute -bottom-40 -left-20 size-[28rem] rounded-full bg-violet-600/30 blur-3xl"
        />
        <div className="relative max-w-lg text-white">
          <h2 className="text-4xl font-bold tracking-tight">Your pipeline, filled while you sleep.</h2>
          <ul className="mt-8 space-y-4 text-lg text-slate-300">
            {points.map((point) => (
              <li key={point} className="flex items-center gap-3">
                <CheckCircle2 className="size-5 text-emerald-400" aria-hidden="true" />
                {point}
              </li>
            ))}
          </ul>
          <figure className="mt-12 rounded-2xl bg-white/5 p-6 ring-1 ring-white/10">
            <Quote className="size-6 text-brand-300" aria-hidden="true" />
            <blockquote className="mt-3 text-slate-200">
              We replaced two hours of daily manual DMs with one campaign. Replies started coming in on day
              one.
            </blockquote>
            <figcaption className="mt-4 text-sm text-slate-400">
              Agency owner, 6 accounts on the Growth plan
            </figcaption>
          </figure>
        </div>
      </aside>
    </div>
  )
}

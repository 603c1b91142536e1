import type { ReactNode } from 'react'
import { Logo } from '@/components/ui/logo'

/** One card in the middle of a soft background (payment outcome pages). */
export function CenteredCardLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center bg-gradient-to-b from-brand-50 to-white px-4 py-8">
      <Logo />
      <main className="mt-10 w-full max-w-md rounded-3xl bg-white p-8 shadow-card ring-1 ring-slate-200 sm:mt-16 sm:p-10">
        {children}
      </main>
    </div>
  )
}

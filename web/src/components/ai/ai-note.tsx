import { Sparkles } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from '@/lib/cn'

/** The one line that says why an AI feature is hidden or off today. */
export function AiNote({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p className={cn('flex items-start gap-2 text-xs text-slate-500', className)} data-testid="ai-note">
      <Sparkles className="mt-0.5 size-3.5 shrink-0 text-slate-400" aria-hidden="true" />
      <span>{children}</span>
    </p>
  )
}

/** Marks the local stack's AI sandbox, so nobody mistakes its fixed answers for a model's. */
export function SandboxBadge() {
  return (
    <span className="whitespace-nowrap rounded-full bg-amber-50 px-2 py-0.5 text-[11px] font-medium text-amber-800 ring-1 ring-amber-600/25 ring-inset">
      Sandbox AI
    </span>
  )
}

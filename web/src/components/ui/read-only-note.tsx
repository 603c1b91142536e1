import { ROLE_NOT_ALLOWED } from '@reachflow/domain'
import { Eye } from 'lucide-react'
import { cn } from '@/lib/cn'

/** One line where a role that only reads would otherwise find a button (a viewer's empty states). */
export function ReadOnlyNote({ className }: { className?: string }) {
  return (
    <p
      className={cn('flex items-center gap-1.5 text-sm text-slate-500', className)}
      data-testid="read-only-note"
    >
      <Eye className="size-4 shrink-0" aria-hidden="true" />
      {ROLE_NOT_ALLOWED}
    </p>
  )
}

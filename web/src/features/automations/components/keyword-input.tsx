import { X } from 'lucide-react'
import { type KeyboardEvent, useState } from 'react'
import { inputClasses } from '@/components/ui/form-field'
import { cn } from '@/lib/cn'
import { addKeywords } from '../automation-form'

/**
 * Keywords as chips: Enter or a comma adds what is typed (a pasted "guide, price" adds both),
 * Backspace in the empty box removes the last one, each chip has its own remove button.
 */
export function KeywordInput({
  id,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string
  value: string[]
  onChange: (keywords: string[]) => void
  invalid: boolean
  describedBy: string
}) {
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  const commit = (typed: string) => {
    if (!typed.trim()) return
    const added = addKeywords(value, typed)
    setProblem(added.problem)
    if (added.keywords.length !== value.length) onChange(added.keywords)
    setDraft('')
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault()
      commit(draft)
    } else if (event.key === 'Backspace' && !draft && value.length > 0) {
      onChange(value.slice(0, -1))
    }
  }

  return (
    <div>
      <div
        className={cn(
          inputClasses,
          'flex min-h-11 flex-wrap items-center gap-1.5 px-2 py-1.5 focus-within:ring-2 focus-within:ring-brand-600',
          invalid && 'ring-red-400',
        )}
      >
        <ul className="contents" aria-label="Added keywords">
          {value.map((keyword) => (
            <li
              key={keyword}
              className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-700 ring-1 ring-brand-600/20 ring-inset"
            >
              {keyword}
              <button
                type="button"
                onClick={() => onChange(value.filter((k) => k !== keyword))}
                className="rounded-full p-0.5 text-brand-500 hover:bg-brand-100 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
                aria-label={`Remove keyword ${keyword}`}
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
        <input
          id={id}
          value={draft}
          autoComplete="off"
          placeholder={value.length ? 'Add another…' : 'e.g. guide, price'}
          aria-invalid={invalid}
          aria-describedby={problem ? `${id}-problem` : describedBy}
          onChange={(e) => {
            setProblem(null)
            setDraft(e.target.value)
          }}
          onKeyDown={onKeyDown}
          onBlur={() => commit(draft)}
          onPaste={(e) => {
            const text = e.clipboardData.getData('text')
            if (/[,\n]/.test(text)) {
              e.preventDefault()
              commit(draft + text)
            }
          }}
          className="min-w-32 flex-1 border-0 bg-transparent px-1 py-1 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none"
        />
      </div>
      {problem && (
        <p id={`${id}-problem`} role="status" className="mt-1.5 text-xs font-medium text-amber-700">
          {problem}
        </p>
      )}
    </div>
  )
}

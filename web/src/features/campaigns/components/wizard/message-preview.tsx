import { personalise } from '../../campaign-form'

const SAMPLE_LEAD = { username: 'jordan_builds', name: 'Jordan' }

/** Live preview of the first message as one sample lead would receive it. */
export function MessagePreview({ template, fallback }: { template: string; fallback: string }) {
  const text = template.trim() ? personalise(template, SAMPLE_LEAD) : ''
  const noName = fallback.trim() ? personalise(fallback, { username: SAMPLE_LEAD.username, name: null }) : ''
  return (
    <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200" aria-live="polite">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
        Preview for @{SAMPLE_LEAD.username}
      </p>
      {text ? (
        <p className="mt-2 max-w-[85%] rounded-2xl rounded-tl-sm bg-brand-600 px-4 py-2.5 text-sm whitespace-pre-wrap text-white">
          {text}
        </p>
      ) : (
        <p className="mt-2 text-sm text-slate-500">Write a message to see how it reads.</p>
      )}
      {noName && (
        <p className="mt-3 text-xs text-slate-500">
          Without a name: <span className="text-slate-700">{noName}</span>
        </p>
      )}
    </div>
  )
}

import { hasSpintax, spin } from '@reachflow/domain'
import { useMutation } from '@tanstack/react-query'
import { Shuffle, Sparkles } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { previewPersonalizedMessage } from '@/lib/ai'
import { personalise } from '../../campaign-form'

const SAMPLE_LEAD = { username: 'jordan_builds', name: 'Jordan' }

/**
 * A small seeded random source: the preview keeps its pick while the customer types, and
 * "Spin again" moves to the next seed.
 */
function seeded(seed: number): () => number {
  let state = (seed * 0x9e3779b1) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** What one lead would receive: spintax spun as the runner spins it, then the placeholders filled. */
export function previewText(template: string, lead: { username: string; name: string | null }, seed: number) {
  return personalise(spin(template, seeded(seed)), lead)
}

/**
 * Live preview of the first message as one sample lead would receive it. With AI personalisation on
 * the AI rewrites it per lead, so the sample is only the starting point: `aiSourceId` (the chosen
 * lead source) offers the text a real lead of that source would be sent.
 */
export function MessagePreview({
  template,
  fallback,
  aiSourceId = null,
}: {
  template: string
  fallback: string
  aiSourceId?: string | null
}) {
  const [seed, setSeed] = useState(1)
  const text = template.trim() ? previewText(template, SAMPLE_LEAD, seed) : ''
  const noName = fallback.trim()
    ? previewText(fallback, { username: SAMPLE_LEAD.username, name: null }, seed)
    : ''
  const spins = hasSpintax(template) || hasSpintax(fallback)
  return (
    <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          {aiSourceId === null ? 'Preview' : 'Before AI personalisation'} for @{SAMPLE_LEAD.username}
        </p>
        {spins && (
          <Button
            variant="ghost"
            size="sm"
            icon={<Shuffle className="size-4" aria-hidden="true" />}
            onClick={() => setSeed((s) => s + 1)}
          >
            Spin again
          </Button>
        )}
      </div>
      <div aria-live="polite">
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
      {aiSourceId !== null && text && <RealLeadPreview template={template} sourceId={aiSourceId} />}
    </div>
  )
}

/** The first message as the first lead of the source would get it, AI personalisation included. */
function RealLeadPreview({ template, sourceId }: { template: string; sourceId: string }) {
  const preview = useMutation({
    mutationFn: () =>
      previewPersonalizedMessage({ template, scraping_campaign_id: sourceId, platform: 'twitter' }),
  })
  const result = preview.data
  return (
    <div className="mt-4 border-t border-slate-200 pt-3" data-testid="ai-preview">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          {result ? `What @${result.username} would be sent` : 'What a real lead would be sent'}
        </p>
        <Button
          variant="secondary"
          size="sm"
          loading={preview.isPending}
          icon={<Sparkles className="size-4" aria-hidden="true" />}
          onClick={() => preview.mutate()}
        >
          {result ? 'Preview again' : 'Preview for a real lead'}
        </Button>
      </div>
      <div aria-live="polite">
        {preview.error && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {preview.error.message}
          </p>
        )}
        {result && (
          <>
            <p className="mt-2 max-w-[85%] rounded-2xl rounded-tl-sm bg-brand-600 px-4 py-2.5 text-sm whitespace-pre-wrap text-white">
              {result.text}
            </p>
            <p className="mt-2 text-xs text-slate-500">
              {result.personalization === 'personalized'
                ? 'Personalised by AI from this lead’s profile, as it is sent.'
                : `Sent as written: ${result.note ?? 'the AI could not personalise it.'}`}
            </p>
          </>
        )}
      </div>
    </div>
  )
}

import { Play, WifiOff } from 'lucide-react'
import { useState } from 'react'
import { Spinner } from '@/components/ui/spinner'
import { links } from '@/config/links'
import { analytics } from '@/lib/analytics'
import { BookingLink } from './cta-links'

type VideoState = 'poster' | 'checking' | 'playing' | 'unavailable'

const REACHABILITY_TIMEOUT_MS = 4000

/** True when the video host answers at all (an opaque no-cors response is enough). */
async function videoHostReachable(url: string): Promise<boolean> {
  if (!navigator.onLine) return false
  try {
    await fetch(url, { mode: 'no-cors', signal: AbortSignal.timeout(REACHABILITY_TIMEOUT_MS) })
    return true
  } catch {
    return false
  }
}

function withAutoplay(url: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('autoplay', '1')
  return parsed.toString()
}

/**
 * The demo video (#demo). The poster shows first and the player only loads on request, which keeps
 * the page fast; when the video host cannot be reached the poster stays with a way forward.
 */
export function DemoVideoSection() {
  const [state, setState] = useState<VideoState>('poster')

  const play = async () => {
    setState('checking')
    analytics.track('demo_video_play')
    setState((await videoHostReachable(links.demoVideo)) ? 'playing' : 'unavailable')
  }

  return (
    <section id="demo" aria-labelledby="demo-title" className="bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Demo</p>
          <h2 id="demo-title" className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            See a campaign go from zero to replies
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            A short walkthrough: connect an account, scrape leads, write the sequence, schedule it, watch
            replies arrive.
          </p>
        </div>
        <div className="relative mt-12 aspect-video overflow-hidden rounded-2xl bg-slate-900 shadow-2xl ring-1 ring-slate-900/10">
          {state === 'playing' ? (
            <iframe
              src={withAutoplay(links.demoVideo)}
              title="Reachflow product demo"
              className="absolute inset-0 size-full"
              allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
              allowFullScreen
            />
          ) : (
            <div className="absolute inset-0 flex flex-col items-center justify-center gap-5 bg-[radial-gradient(ellipse_at_top,_var(--color-brand-500),_#0f172a_70%)] p-6 text-center text-white">
              {state === 'unavailable' ? (
                <>
                  <WifiOff className="size-10 text-white/80" aria-hidden="true" />
                  <p className="max-w-md text-base font-medium sm:text-lg" role="status">
                    The demo video cannot load right now. Book a call and we will walk you through Reachflow
                    live.
                  </p>
                  <BookingLink placement="demo-unavailable" variant="primary" size="md">
                    Book Demo Call
                  </BookingLink>
                </>
              ) : (
                <>
                  <button
                    type="button"
                    onClick={play}
                    disabled={state === 'checking'}
                    className="flex size-20 items-center justify-center rounded-full bg-white text-brand-600 shadow-xl transition hover:scale-105 sm:size-24"
                    aria-label="Play the Reachflow demo video"
                  >
                    {state === 'checking' ? (
                      <Spinner size={32} label="Loading video" />
                    ) : (
                      <Play className="ml-1 size-9 fill-current" aria-hidden="true" />
                    )}
                  </button>
                  <p className="text-sm font-medium text-white/80">Watch the 3-minute product demo</p>
                </>
              )}
            </div>
          )}
        </div>
        <div className="mt-8 flex justify-center">
          <BookingLink placement="demo" variant="secondary" size="md">
            Prefer a live tour? Book Demo Call
          </BookingLink>
        </div>
      </div>
    </section>
  )
}

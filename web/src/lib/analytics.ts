// The one door to the analytics tag and the advertising pixel (product.md §7 "Third-party embeds and
// events"). With no ids configured nothing loads and every call is a no-op, so local and test
// runs never reach out to third parties.
import { env } from '@/config/env'

type EventParams = Record<string, string | number | boolean | undefined>
export type PixelEvent = 'PageView' | 'StartTrial' | 'Purchase' | 'InitiateCheckout' | 'Lead'

type Gtag = (...args: unknown[]) => void
interface Fbq {
  (...args: unknown[]): void
  callMethod?: (...args: unknown[]) => void
  queue: unknown[][]
  loaded: boolean
  version: string
}

declare global {
  interface Window {
    dataLayer?: unknown[]
    gtag?: Gtag
    fbq?: Fbq
  }
}

function addScript(src: string): void {
  const script = document.createElement('script')
  script.async = true
  script.src = src
  document.head.appendChild(script)
}

export interface AnalyticsConfig {
  gaMeasurementId?: string
  metaPixelId?: string
}

export function createAnalytics(config: AnalyticsConfig) {
  let pixelReady = false

  const gtag = (): Gtag | undefined => {
    if (!config.gaMeasurementId) return undefined
    if (!window.gtag) {
      window.dataLayer = window.dataLayer ?? []
      window.gtag = (...args: unknown[]) => window.dataLayer?.push(args)
      window.gtag('js', new Date())
      window.gtag('config', config.gaMeasurementId)
      addScript(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(config.gaMeasurementId)}`)
    }
    return window.gtag
  }

  const fbq = (): Fbq | undefined => {
    if (!config.metaPixelId) return undefined
    if (!window.fbq) {
      const stub = ((...args: unknown[]) => {
        if (stub.callMethod) stub.callMethod(...args)
        else stub.queue.push(args)
      }) as Fbq
      stub.queue = []
      stub.loaded = true
      stub.version = '2.0'
      window.fbq = stub
      addScript('https://connect.facebook.net/en_US/fbevents.js')
    }
    return window.fbq
  }

  return {
    enabled: Boolean(config.gaMeasurementId || config.metaPixelId),
    /** Analytics event (e.g. 'login_attempt', 'start_free_trial_click', 'purchase'). */
    track(name: string, params: EventParams = {}): void {
      gtag()?.('event', name, params)
    },
    /** Initialises the pixel once and records a PageView (the ads variants call this on load). */
    initPixel(): void {
      const pixel = fbq()
      if (!pixel || pixelReady) return
      pixelReady = true
      pixel('init', config.metaPixelId)
      pixel('track', 'PageView')
    },
    pixel(event: PixelEvent, params: EventParams = {}): void {
      fbq()?.('track', event, params)
    },
  }
}

export const analytics = createAnalytics({
  gaMeasurementId: env.gaMeasurementId,
  metaPixelId: env.metaPixelId,
})

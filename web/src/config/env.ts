// Validated once at start-up so a missing variable is one clear message, not a blank page.
const supabaseUrl = import.meta.env.VITE_SUPABASE_URL as string | undefined
const supabaseAnonKey = import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined

if (!supabaseUrl || !supabaseAnonKey) {
  throw new Error('VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY must be set (npm start sets them for you).')
}

const optional = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined

export const env = {
  supabaseUrl,
  supabaseAnonKey,
  /** Google Analytics 4 measurement id; without it no analytics tag loads and events are dropped. */
  gaMeasurementId: optional(import.meta.env.VITE_GA_MEASUREMENT_ID),
  /** Advertising (Meta) pixel id; without it the pixel never loads. */
  metaPixelId: optional(import.meta.env.VITE_META_PIXEL_ID),
  bookingUrl: optional(import.meta.env.VITE_BOOKING_URL),
  demoVideoUrl: optional(import.meta.env.VITE_DEMO_VIDEO_URL),
}

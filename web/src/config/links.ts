import { env } from './env'

// External destinations the public pages link to. Production overrides them through VITE_* variables
// (see README "Configuration"); the defaults are the company's own pages.
export const links = {
  /** The 15-minute strategy call booking page (Contact Sales, Book a call, Book Demo Call). */
  booking: env.bookingUrl ?? 'https://cal.com/reachflow/15min',
  /** Embeddable demo video (an iframe src). */
  demoVideo: env.demoVideoUrl ?? 'https://www.youtube-nocookie.com/embed/reachflow-demo?rel=0',
  supportEmail: 'support@reachflow.app',
  community: 'https://discord.gg/reachflow',
}

export const brand = {
  name: 'Reachflow',
  founderName: 'Daniel Brooks',
  founderRole: 'Founder & CEO',
}

export const mailto = (address: string, subject?: string) =>
  `mailto:${address}${subject ? `?subject=${encodeURIComponent(subject)}` : ''}`

import { CheckCircle2, PlayCircle, Sparkles } from 'lucide-react'
import { buttonClasses } from '@/components/ui/button'
import { useLandingVariant } from '../landing-context'
import { StartTrialLink } from './cta-links'

const stats = [
  { value: '450', label: 'DMs per day, per account' },
  { value: '25-35%', label: 'average response rate' },
  { value: '4x', label: 'more leads than manual outreach' },
  { value: '500+', label: 'new leads every month' },
]

const reassurances = ['3-day free trial', '5-minute setup', 'Cancel anytime, no contracts']

export function HeroSection() {
  const { hero, isAds } = useLandingVariant()
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-brand-50/70 via-white to-white">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 h-[36rem] w-[64rem] -translate-x-1/2 rounded-full bg-gradient-to-tr from-brand-200/50 via-violet-200/40 to-sky-100/40 blur-3xl"
      />
      <div className="relative mx-auto max-w-7xl px-4 pt-16 pb-20 text-center sm:px-6 sm:pt-24 lg:px-8">
        <p className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-1.5 text-sm font-medium text-brand-700 shadow-sm ring-1 ring-brand-100">
          <Sparkles className="size-4" aria-hidden="true" />
          {hero.eyebrow}
        </p>
        <h1 className="mx-auto mt-6 max-w-4xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl">
          {hero.headline} <span className="text-gradient">{hero.highlight}</span>
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-slate-600">{hero.subline}</p>
        <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <StartTrialLink placement="hero" className="w-full sm:w-auto" />
          <a href="#demo" className={buttonClasses('secondary', 'lg', 'w-full sm:w-auto')}>
            <PlayCircle className="size-5 text-brand-600" aria-hidden="true" />
            Watch the Demo
          </a>
        </div>
        <ul className="mt-6 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-slate-600">
          {(isAds ? ['First month free', ...reassurances.slice(1)] : reassurances).map((item) => (
            <li key={item} className="inline-flex items-center gap-1.5">
              <CheckCircle2 className="size-4 text-emerald-500" aria-hidden="true" />
              {item}
            </li>
          ))}
        </ul>
        <dl className="mx-auto mt-14 grid max-w-4xl grid-cols-2 gap-4 sm:grid-cols-4">
          {stats.map((stat) => (
            <div
              key={stat.label}
              className="rounded-2xl bg-white/80 px-4 py-5 shadow-card ring-1 ring-slate-200/70"
            >
              <dt className="sr-only">{stat.label}</dt>
              <dd className="text-3xl font-bold tracking-tight text-slate-900">{stat.value}</dd>
              <dd className="mt-1 text-sm text-slate-600">{stat.label}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-8 text-sm font-medium text-slate-500">
          Trusted by <span className="font-semibold text-slate-700">2,500+</span> founders, sales teams and
          agencies
        </p>
      </div>
    </section>
  )
}

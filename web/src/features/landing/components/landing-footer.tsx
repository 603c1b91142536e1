import { Link } from 'react-router'
import { Logo } from '@/components/ui/logo'
import { brand, links, mailto } from '@/config/links'
import { paths } from '@/config/paths'
import { BookingLink, StartTrialLink } from './cta-links'

export function LandingFooter() {
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="flex flex-col items-center gap-6 border-b border-white/10 py-16 text-center">
          <h2 className="max-w-2xl text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Your next customers are one message away
          </h2>
          <p className="max-w-xl text-lg text-slate-400">
            Start your 3-day free trial today and have your first campaign running in five minutes.
          </p>
          <div className="flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
            <StartTrialLink placement="footer" className="w-full sm:w-auto" />
            <BookingLink
              placement="footer"
              variant="ghost"
              size="lg"
              className="w-full text-white ring-1 ring-white/20 hover:bg-white/10 sm:w-auto"
            >
              Book Strategy Call
            </BookingLink>
          </div>
        </div>
        <div className="grid grid-cols-2 gap-10 py-12 md:grid-cols-[2fr_1fr_1fr]">
          <div className="col-span-2 md:col-span-1">
            <Logo light />
            <p className="mt-4 max-w-sm text-sm leading-6 text-slate-400">
              Cloud DM automation for X and Instagram. Find prospects, send personalised sequences and book
              more calls on autopilot.
            </p>
          </div>
          <nav aria-label="Product">
            <h3 className="text-sm font-semibold text-white">Product</h3>
            <ul className="mt-4 space-y-3 text-sm">
              <li>
                <a href="#features" className="hover:text-white">
                  Features
                </a>
              </li>
              <li>
                <a href="#pricing" className="hover:text-white">
                  Pricing
                </a>
              </li>
              <li>
                <a href="#demo" className="hover:text-white">
                  Demo
                </a>
              </li>
              <li>
                <a href="#faq" className="hover:text-white">
                  FAQ
                </a>
              </li>
            </ul>
          </nav>
          <nav aria-label="Account">
            <h3 className="text-sm font-semibold text-white">Account</h3>
            <ul className="mt-4 space-y-3 text-sm">
              <li>
                <Link to={paths.login} className="hover:text-white">
                  Sign In
                </Link>
              </li>
              <li>
                <a href={mailto(links.supportEmail)} className="hover:text-white">
                  Contact Support
                </a>
              </li>
            </ul>
          </nav>
        </div>
        <div className="flex flex-col items-center justify-between gap-3 border-t border-white/10 py-8 text-sm text-slate-400 sm:flex-row">
          <p>
            © {new Date().getFullYear()} {brand.name}. All rights reserved.
          </p>
          <p>
            Built with care by <span className="font-medium text-slate-300">{brand.founderName}</span>,{' '}
            {brand.founderRole}
          </p>
        </div>
      </div>
    </footer>
  )
}

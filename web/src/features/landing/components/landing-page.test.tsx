import type { User } from '@supabase/supabase-js'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useAuth } from '@/lib/auth-store'
import type { LandingVariant } from '../variants'
import { LandingPage } from './landing-page'

function renderLanding(variant: LandingVariant = 'general') {
  const router = createMemoryRouter([{ path: '*', element: <LandingPage variant={variant} /> }], {
    initialEntries: ['/'],
  })
  return render(<RouterProvider router={router} />)
}

afterEach(() => {
  useAuth.setState({ user: null, session: null, loading: false })
  vi.useRealTimers()
})

describe('landing page sections (product.md §2)', () => {
  it('renders every section in order with the #features, #demo and #pricing anchors', () => {
    const { container } = renderLanding()
    const headings = [...container.querySelectorAll('main h2')].map((h) => h.textContent)
    expect(headings).toEqual([
      'Manual DM outreach does not scale',
      'Your outreach team, running 24/7 in the cloud',
      'See every conversation you started today',
      'Built for people who sell in the DMs',
      'See a campaign go from zero to replies',
      'Simple pricing that pays for itself with one deal',
      'Stop doing outreach like it is 2015',
      'Everything included, on every plan',
      'Frequently asked questions',
    ])
    for (const anchor of ['features', 'demo', 'pricing'])
      expect(container.querySelector(`#${anchor}`)).not.toBeNull()
    expect(screen.getByText(/Built with care by/)).toBeInTheDocument()
  })

  it('signed out: Features, Pricing, Sign In and Start Now; trial buttons go to sign-up in checkout mode', () => {
    renderLanding()
    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(within(nav).getByRole('link', { name: 'Features' })).toHaveAttribute('href', '#features')
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '#pricing')
    expect(within(nav).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login')
    expect(within(nav).getByRole('link', { name: 'Start Now' })).toHaveAttribute('href', '#pricing')
    const trials = screen.getAllByRole('link', { name: /Start Free Trial/ })
    expect(trials.length).toBeGreaterThan(2)
    for (const link of trials) expect(link).toHaveAttribute('href', '/login?checkout=true')
  })

  it('signed in: greets by full name, offers Sign Out and Dashboard; trials go to the dashboard', () => {
    useAuth.setState({
      loading: false,
      user: {
        id: 'u1',
        email: 'ana@example.com',
        user_metadata: { full_name: 'Ana Lima' },
      } as unknown as User,
    })
    renderLanding()
    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(within(nav.parentElement as HTMLElement).getByText('Ana Lima')).toBeInTheDocument()
    expect(within(nav).getByRole('button', { name: 'Sign Out' })).toBeInTheDocument()
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(screen.getAllByRole('link', { name: /Start Free Trial/ })[0]).toHaveAttribute('href', '/dashboard')
  })

  it('greets with the e-mail when there is no full name', () => {
    useAuth.setState({
      loading: false,
      user: { id: 'u1', email: 'ana@example.com', user_metadata: {} } as unknown as User,
    })
    renderLanding()
    expect(screen.getAllByText('ana@example.com').length).toBeGreaterThan(0)
  })

  it('opens and closes the mobile menu', () => {
    renderLanding()
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }))
    expect(document.getElementById('mobile-menu')).not.toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Close menu' }))
    expect(document.getElementById('mobile-menu')).toBeNull()
  })
})

describe('pricing section', () => {
  it('defaults to yearly with Save 20%, and switches to monthly prices', () => {
    renderLanding()
    const pricing = document.getElementById('pricing') as HTMLElement
    expect(within(pricing).getByRole('button', { name: /Annual/ })).toHaveAttribute('aria-pressed', 'true')
    expect(within(pricing).getByText('Save 20%')).toBeInTheDocument()
    const starter = within(pricing).getByRole('article', { name: 'Starter plan' })
    expect(within(starter).getByText('$39')).toBeInTheDocument()
    expect(within(starter).getByText('$468 billed annually')).toBeInTheDocument()
    fireEvent.click(within(pricing).getByRole('button', { name: 'Monthly' }))
    expect(within(starter).getByText('$49')).toBeInTheDocument()
  })

  it('prices Growth from the account slider (1-50, default 1)', () => {
    renderLanding()
    const growth = screen.getByRole('article', { name: 'Growth plan' })
    const slider = within(growth).getByRole('slider')
    expect(slider).toHaveAttribute('min', '1')
    expect(slider).toHaveAttribute('max', '50')
    expect(slider).toHaveValue('1')
    fireEvent.change(slider, { target: { value: '10' } })
    expect(within(growth).getByText('$23')).toBeInTheDocument()
    expect(within(growth).getByText('$2,760 billed annually for 10 accounts')).toBeInTheDocument()
    expect(within(growth).getByText('4,500 DMs per day')).toBeInTheDocument()
  })

  it('expands and collapses a plan feature list', () => {
    renderLanding()
    const starter = screen.getByRole('article', { name: 'Starter plan' })
    const before = within(starter).getAllByRole('listitem').length
    fireEvent.click(within(starter).getByRole('button', { name: /See more features/ }))
    expect(within(starter).getAllByRole('listitem').length).toBeGreaterThan(before)
    fireEvent.click(within(starter).getByRole('button', { name: /See fewer features/ }))
    expect(within(starter).getAllByRole('listitem')).toHaveLength(before)
  })

  it('offers the 3 Month Bundle at $98 instead of $147', () => {
    renderLanding()
    const bundle = screen.getByRole('article', { name: '3 Month Bundle' })
    expect(within(bundle).getByText('$98')).toBeInTheDocument()
    expect(within(bundle).getByText('$147')).toBeInTheDocument()
  })
})

describe('FAQ', () => {
  it('has 8 questions and keeps one open at a time; clicking the open one closes it', () => {
    renderLanding()
    const faq = document.getElementById('faq') as HTMLElement
    const questions = within(faq).getAllByRole('button', { expanded: false })
    expect(questions).toHaveLength(8)
    const [first, second] = questions as [HTMLElement, HTMLElement]
    fireEvent.click(first)
    expect(first).toHaveAttribute('aria-expanded', 'true')
    fireEvent.click(second)
    expect(first).toHaveAttribute('aria-expanded', 'false')
    expect(second).toHaveAttribute('aria-expanded', 'true')
    fireEvent.click(second)
    expect(within(faq).queryAllByRole('button', { expanded: true })).toHaveLength(0)
  })
})

describe('ads variants', () => {
  it('store the traffic source, show the countdown, offer card and spots counter', () => {
    vi.useFakeTimers()
    renderLanding('fb-offer')
    expect(sessionStorage.getItem('traffic_source')).toBe('fb-offer')
    expect(localStorage.getItem('conversion_source')).toBe('fb-offer')
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Get 500+ new leads every month on autopilot',
    )
    const timer = screen.getByRole('timer')
    expect(timer).toHaveTextContent('23:59:59')
    act(() => void vi.advanceTimersByTime(1000))
    expect(timer).toHaveTextContent('23:59:58')
    const offer = screen.getByRole('article', { name: /Your first month free/ })
    expect(within(offer).getByTestId('spots-left')).toHaveTextContent('7')
    act(() => void vi.advanceTimersByTime(45_000))
    expect(within(offer).getByTestId('spots-left')).toHaveTextContent('6')
    for (const link of screen.getAllByRole('link', { name: /Start Free Trial/ }))
      expect(link).toHaveAttribute('href', '/login?checkout=true&source=fb-offer')
  })

  it('the general page has no countdown and no ads offer card', () => {
    renderLanding('general')
    expect(screen.queryByRole('timer')).toBeNull()
    expect(screen.queryByRole('article', { name: /Your first month free/ })).toBeNull()
  })
})

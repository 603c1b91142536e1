import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { analytics } from '@/lib/analytics'
import { checkoutSource } from '@/lib/traffic-source'

/** The source the dashboard attributes a trial to: the query's, else the stored traffic source. */
export function dashboardSource(search: string): string | null {
  const fromQuery = new URLSearchParams(search).get('source')
  if (fromQuery) return fromQuery
  const stored = checkoutSource('')
  return stored === 'unknown' ? null : stored
}

/**
 * product.md §2: with payment=success and source fb-offer the dashboard fires the pixel's StartTrial
 * event once and removes `payment` from the address.
 */
export function usePaymentSourceEvent(): void {
  const location = useLocation()
  const navigate = useNavigate()
  const fired = useRef(false)
  useEffect(() => {
    const query = new URLSearchParams(location.search)
    if (query.get('payment') !== 'success') return
    if (!fired.current && dashboardSource(location.search) === 'fb-offer') {
      fired.current = true
      analytics.pixel('StartTrial')
    }
    query.delete('payment')
    const rest = query.toString()
    navigate({ pathname: location.pathname, search: rest ? `?${rest}` : '' }, { replace: true })
  }, [location.pathname, location.search, navigate])
}

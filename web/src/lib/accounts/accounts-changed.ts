import { useEffect } from 'react'

const EVENT = 'reachflow:accounts-changed'

/**
 * Says that the customer's accounts changed outside the dashboard's data cache (the setup modal
 * lives in the route guard, outside it): the dashboard refreshes its counts and lists at once
 * instead of after a reload.
 */
export function announceAccountsChanged(): void {
  window.dispatchEvent(new Event(EVENT))
}

export function useAccountsChanged(onChange: () => void): void {
  useEffect(() => {
    window.addEventListener(EVENT, onChange)
    return () => window.removeEventListener(EVENT, onChange)
  }, [onChange])
}

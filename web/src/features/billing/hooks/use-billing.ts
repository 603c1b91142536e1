import { useCallback, useEffect, useState } from 'react'
import { getPayments } from '../api/get-payments'
import { getSubscription } from '../api/get-subscription'
import type { Payment, Subscription } from '../api/types'

interface BillingData {
  loading: boolean
  error: string | null
  subscription: Subscription | null
  payments: Payment[]
}

export function useBilling(userId: string) {
  const [data, setData] = useState<BillingData>({
    loading: true,
    error: null,
    subscription: null,
    payments: [],
  })

  const reload = useCallback(async () => {
    try {
      const [subscription, payments] = await Promise.all([getSubscription(userId), getPayments(userId)])
      setData({ loading: false, error: null, subscription, payments })
    } catch (error) {
      console.error('Error loading billing', error)
      setData((current) => ({ ...current, loading: false, error: (error as Error).message }))
    }
  }, [userId])

  useEffect(() => {
    void reload()
  }, [reload])

  return { ...data, reload }
}

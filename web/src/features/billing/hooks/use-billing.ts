import { useCallback, useEffect, useState } from 'react'
import { getPayments } from '../api/get-payments'
import { getSubscription } from '../api/get-subscription'
import { getWorkspacePlan, type WorkspacePlan } from '../api/get-workspace-plan'
import type { Payment, Subscription } from '../api/types'

interface BillingData {
  loading: boolean
  error: string | null
  /** The active workspace; its subscription and payments are read only when the caller owns it. */
  workspace: WorkspacePlan | null
  subscription: Subscription | null
  payments: Payment[]
}

export function useBilling() {
  const [data, setData] = useState<BillingData>({
    loading: true,
    error: null,
    workspace: null,
    subscription: null,
    payments: [],
  })

  const reload = useCallback(async () => {
    try {
      const workspace = await getWorkspacePlan()
      if (!workspace?.isOwner) {
        setData({ loading: false, error: null, workspace, subscription: null, payments: [] })
        return
      }
      const [subscription, payments] = await Promise.all([
        getSubscription(workspace.workspaceId),
        getPayments(workspace.workspaceId),
      ])
      setData({ loading: false, error: null, workspace, subscription, payments })
    } catch (error) {
      console.error('Error loading billing', error)
      setData((current) => ({ ...current, loading: false, error: (error as Error).message }))
    }
  }, [])

  useEffect(() => {
    void reload()
  }, [reload])

  return { ...data, reload }
}

import type { SupabaseClient } from '@supabase/supabase-js'
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react'
import { useStore } from 'zustand'
import {
  createNotificationsStore,
  type NotificationsState,
  type NotificationsStore,
} from '../notifications-store'

/** product.md §9: refreshed on load and every 60 s. */
export const NOTIFICATIONS_POLL_MS = 60_000

const NotificationsContext = createContext<NotificationsStore | null>(null)

interface NotificationsProviderProps {
  client: SupabaseClient
  children: ReactNode
  pollMs?: number
}

export function NotificationsProvider({
  client,
  children,
  pollMs = NOTIFICATIONS_POLL_MS,
}: NotificationsProviderProps) {
  const [store] = useState(() => createNotificationsStore(client))
  useEffect(() => {
    void store.getState().load()
    const timer = setInterval(() => void store.getState().load(), pollMs)
    return () => clearInterval(timer)
  }, [store, pollMs])
  return <NotificationsContext.Provider value={store}>{children}</NotificationsContext.Provider>
}

/** A slice of the nearest provider's state; outside a provider this is a programming error (product.md §8). */
export function useNotifications<T>(select: (state: NotificationsState) => T): T {
  const store = useContext(NotificationsContext)
  if (!store) throw new Error('useNotifications must be used within a NotificationsProvider')
  return useStore(store, select)
}

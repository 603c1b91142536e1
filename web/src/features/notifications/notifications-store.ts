// The bell's state: the newest notifications and the unread count, loaded on mount and every 60 s
// (product.md §9). One store per NotificationsProvider; the data functions get the caller's client so
// RLS scopes every read and write to the active workspace (switching it reloads the app).
import type { SupabaseClient } from '@supabase/supabase-js'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { getNotifications } from './api/get-notifications'
import { markAllNotificationsRead, markNotificationRead } from './api/mark-notifications-read'
import { type NotificationsData, withAllRead, withRead } from './notification-rules'

export interface NotificationsState extends NotificationsData {
  /** True until the first load has finished (the panel shows 'Loading...'). */
  loading: boolean
  load: () => Promise<void>
  markRead: (id: string) => Promise<void>
  markAllRead: () => Promise<void>
}

export type NotificationsStore = StoreApi<NotificationsState>

export function createNotificationsStore(client: SupabaseClient): NotificationsStore {
  return createStore<NotificationsState>()((set, get) => ({
    items: [],
    unreadCount: 0,
    loading: true,

    async load() {
      try {
        set({ ...(await getNotifications(client)), loading: false })
      } catch (error) {
        // product.md §8: a failed fetch is logged and leaves the state as it was.
        console.error('Error fetching notifications', error)
        set({ loading: false })
      }
    },

    async markRead(id) {
      if (get().items.find((item) => item.id === id)?.read !== false) return
      try {
        const readAt = await markNotificationRead(client, id)
        set((state) => withRead(state, id, readAt))
      } catch (error) {
        console.error('Error marking notification read', error)
      }
    },

    async markAllRead() {
      try {
        await markAllNotificationsRead(client)
        set((state) => withAllRead(state, new Date().toISOString()))
      } catch (error) {
        console.error('Error marking all notifications read', error)
      }
    },
  }))
}

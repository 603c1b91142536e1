// Stands in for @supabase/realtime-js in the web bundle (vite.config.ts aliases it here).
// Reachflow never subscribes to realtime channels: notifications poll every 60 s (product.md §9) and the
// gateway serves no /realtime/v1 (shared/supabase-contract.md). supabase-js still builds a realtime
// client in its constructor, which put ~15 KB gzip (realtime-js + phoenix) on every signed-in page,
// the landing page included. This class keeps the calls supabase-js makes (setAuth on every token
// change, listing and removing channels) and refuses a subscription loudly instead of silently.

const UNSUPPORTED =
  'Realtime channels are not part of the Reachflow web app (see web/src/lib/realtime-disabled.ts).'

export class RealtimeClient {
  /** supabase-js passes every new access token on; there is no socket to authorise. */
  setAuth(_token?: string | null): Promise<void> {
    return Promise.resolve()
  }

  channel(_name: string, _options?: unknown): never {
    throw new Error(UNSUPPORTED)
  }

  getChannels(): [] {
    return []
  }

  removeChannel(_channel: unknown): Promise<'ok'> {
    return Promise.resolve('ok')
  }

  removeAllChannels(): Promise<[]> {
    return Promise.resolve([])
  }
}

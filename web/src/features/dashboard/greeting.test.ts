import type { User } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { dashboardGreeting, firstName, markDashboardVisit } from './greeting'

const user = (metadata: Record<string, unknown>, id = 'u1') =>
  ({ id, email: 'new.customer@example.com', user_metadata: metadata }) as unknown as User

function memoryStorage() {
  const map = new Map<string, string>()
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) }
}

describe('dashboard greeting', () => {
  it('greets a brand-new user without a name with "Welcome", never the raw e-mail', () => {
    const storage = memoryStorage()
    const u = user({})
    const greeting = dashboardGreeting(u, markDashboardVisit(u.id, storage))
    expect(greeting).toBe('Welcome')
    expect(greeting).not.toContain('@')
  })

  it('uses the first name when known and says "Welcome back" from the second visit on', () => {
    const storage = memoryStorage()
    const u = user({ full_name: '  Ana María López ' })
    expect(dashboardGreeting(u, markDashboardVisit(u.id, storage))).toBe('Welcome, Ana')
    expect(dashboardGreeting(u, markDashboardVisit(u.id, storage))).toBe('Welcome back, Ana')
    const other = user({ full_name: 'Bo' }, 'u2')
    expect(dashboardGreeting(other, markDashboardVisit(other.id, storage))).toBe('Welcome, Bo')
  })

  it('treats an unusable storage as a first visit', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {},
    }
    expect(markDashboardVisit('u1', broken)).toBe(false)
    expect(firstName(user({ full_name: '   ' }))).toBeNull()
  })
})

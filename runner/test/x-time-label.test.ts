// What the runner makes of X's time labels and of a thread without machine-readable times: a label
// dated against the moment it was read (x/time-label.ts), and a follow-up's reply found by its
// position below our last DM, whatever the label says (sending/send-lead.ts).
import { describe, expect, it } from 'vitest'
import type { ThreadMessage } from '../src/platforms/types.ts'
import { X_FACTS } from '../src/platforms/x/facts.ts'
import { timeOfLabel } from '../src/platforms/x/time-label.ts'
import { repliesAfter } from '../src/sending/send-lead.ts'

const readAt = new Date(2026, 10, 29, 14, 30, 20) // local time, as the page formats its labels
const at = (label: string) => timeOfLabel(X_FACTS, label, readAt)

describe('X time labels', () => {
  it('dates "now", "5m", a clock time and "Yesterday" against the read; others not at all', () => {
    expect(at('now')).toBe(readAt.toISOString())
    expect(at('5m')).toBe(new Date(readAt.getTime() - 5 * 60_000).toISOString())
    expect(at('2h')).toBe(new Date(readAt.getTime() - 2 * 3_600_000).toISOString())
    expect(at('2:09 PM')).toBe(new Date(2026, 10, 29, 14, 9).toISOString())
    expect(at('12:05\u202fAM')).toBe(new Date(2026, 10, 29, 0, 5).toISOString())
    // later today than the read: written yesterday at that time
    expect(at('11:50 PM')).toBe(new Date(2026, 10, 28, 23, 50).toISOString())
    expect(at('Yesterday')).toBe(new Date(readAt.getTime() - 86_400_000).toISOString())
    expect(at('Nov 3')).toBeNull()
    expect(at('')).toBeNull()
  })
})

const row = (id: string, direction: ThreadMessage['direction'], text: string, label: string | null) => ({
  id,
  direction,
  text,
  status: direction === 'incoming' ? 'received' : '',
  at: label,
})

describe("a follow-up's reply check", () => {
  const dm = 'Hi Ana, a quick question?'
  it('takes what the lead wrote below our last DM, however the page dates it', () => {
    const thread = [
      row('1', 'incoming', 'An old message request', '2026-11-20T10:00:00.000Z'),
      row('2', 'outgoing', dm, null),
      // dated before the DM by a coarse label (the minute it was sent, or "Yesterday")
      row('3', 'incoming', 'Sure, tell me more', '2026-11-01T00:00:00.000Z'),
    ]
    expect(repliesAfter(thread, dm, new Date('2026-11-28T10:00:30Z')).map((m) => m.id)).toEqual(['3'])
    expect(repliesAfter(thread.slice(0, 2), dm, new Date('2026-11-28T10:00:30Z'))).toEqual([])
  })

  it('falls back to the label, to the minute, when the thread no longer shows our DM', () => {
    const thread = [
      row('1', 'incoming', 'Older', '2026-11-28T09:59:00.000Z'),
      row('2', 'incoming', 'Same minute', '2026-11-28T10:00:00.000Z'),
      row('3', 'incoming', 'Undated', null),
    ]
    expect(repliesAfter(thread, dm, new Date('2026-11-28T10:00:30Z')).map((m) => m.id)).toEqual(['2', '3'])
  })
})

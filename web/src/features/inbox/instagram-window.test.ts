import { describe, expect, it } from 'vitest'
import { instagramWindow } from './instagram-window'

const at = (iso: string) => new Date(iso)
const HOUR = 3_600_000

describe("an official Instagram thread's answer window, in words", () => {
  it('within 24 hours: a normal answer until the hour, with the tag until the 7th day', () => {
    const window = instagramWindow('ana', '2026-11-27T14:05:00Z', at('2026-11-27T16:00:00Z'), 'UTC')
    expect(window).toEqual({
      state: 'standard',
      text: 'Instagram window: a normal answer until 28 Nov, 14:05, with the human-agent tag until 4 Dec',
    })
    expect(instagramWindow('ana', '2026-11-26T18:00:00Z', at('2026-11-27T16:00:00Z'), 'UTC').text).toBe(
      'Instagram window: a normal answer until 18:00, with the human-agent tag until 3 Dec',
    )
  })

  it('between 24 hours and 7 days: the human-agent tag until its end', () => {
    const last = '2026-11-20T09:30:00Z'
    expect(instagramWindow('ana', last, new Date(Date.parse(last) + 24 * HOUR), 'UTC')).toEqual({
      state: 'human_agent',
      text: 'Instagram window: 24 hours have passed, so your answer goes with the human-agent tag, until 27 Nov, 09:30',
    })
    expect(instagramWindow('ana', last, at('2026-11-27T09:29:00Z'), 'UTC').state).toBe('human_agent')
  })

  it('after 7 days, or when the person never wrote: closed, with the reason', () => {
    expect(instagramWindow('ana', '2026-11-20T09:30:00Z', at('2026-11-27T09:30:00Z'), 'UTC')).toEqual({
      state: 'closed',
      text: "Instagram window closed: @ana last wrote on 20 Nov, more than 7 days ago. Instagram allows an answer only within 7 days of the person's last message.",
    })
    expect(instagramWindow('ben', null, at('2026-11-27T09:30:00Z'), 'UTC')).toEqual({
      state: 'closed',
      text: 'Instagram window closed: @ben has not written to you yet, and Instagram lets a business answer only people who wrote to it.',
    })
  })

  it("the times are the customer's own", () => {
    expect(
      instagramWindow('ana', '2026-11-27T14:05:00Z', at('2026-11-27T15:00:00Z'), 'Europe/Berlin').text,
    ).toBe('Instagram window: a normal answer until 28 Nov, 15:05, with the human-agent tag until 4 Dec')
  })
})

import { describe, expect, it } from 'vitest'
import { resumeWhen, waitSentence } from './campaign-wait'

const now = new Date('2026-03-11T15:20:00Z') // a Wednesday

describe('why a campaign waits', () => {
  it('names the cap that stopped it and when sending resumes', () => {
    expect(
      waitSentence(
        { accountUsername: 'acct', cause: 'warmup', cap: 10, resumesAt: '2026-03-12T09:00:00Z' },
        now,
        'UTC',
      ),
    ).toBe("Waiting: @acct reached today's warm-up limit (10). Sending resumes tomorrow at 09:00.")
    expect(
      waitSentence({ accountUsername: 'acct', cause: 'campaign', cap: 5, resumesAt: null }, now, 'UTC'),
    ).toBe(
      'Waiting: this campaign reached its daily limit (5). Sending resumes when its schedule next opens.',
    )
  })

  it("says the day in the reader's time zone", () => {
    const at = new Date('2026-03-12T09:00:00Z')
    // 09:00 UTC on Thursday is 22:00 the same Thursday in Auckland (UTC+13), where it is already Thursday
    expect(resumeWhen(at, now, 'Pacific/Auckland')).toBe('today at 22:00')
    expect(resumeWhen(new Date('2026-03-16T09:00:00Z'), now, 'UTC')).toBe('on Monday at 09:00')
    expect(resumeWhen(new Date('2026-03-30T09:00:00Z'), now, 'UTC')).toBe('on 30 Mar at 09:00')
  })
})

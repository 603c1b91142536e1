import { describe, expect, it } from 'vitest'
import {
  addKeywords,
  automationFormSchema,
  automationRow,
  canFollowUp,
  delayLabel,
  emptyAutomation,
  formValuesOf,
  MESSAGES,
} from './automation-form'

const ACCOUNT = '6f9619ff-8b86-d011-b42d-00cf4fc964ff'
const problems = (values: unknown) => {
  const parsed = automationFormSchema.safeParse(values)
  return parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]))
}
const valid = { ...emptyAutomation(ACCOUNT), name: 'Lookbook', keywords: ['guide'], replyText: 'Here it is' }

describe('automation form rules (the table checks, said first)', () => {
  it('asks for a name, an account, a keyword for the keyword triggers and the reply', () => {
    expect(problems(emptyAutomation())).toEqual({
      name: MESSAGES.name,
      accountId: MESSAGES.account,
      replyText: MESSAGES.reply,
      keywords: MESSAGES.keywordsNeeded,
    })
    expect(problems({ ...valid, trigger: 'dm_keyword', keywords: [] })).toEqual({
      keywords: MESSAGES.keywordsNeeded,
    })
    // story mentions and replies answer every one without a keyword
    expect(problems({ ...valid, trigger: 'story_mention', keywords: [] })).toEqual({})
    expect(problems({ ...valid, trigger: 'story_reply', keywords: [] })).toEqual({})
    expect(problems(valid)).toEqual({})
  })

  it('counts the reply in bytes as Instagram does, and the name and public reply in characters', () => {
    expect(problems({ ...valid, replyText: 'a'.repeat(1000) })).toEqual({})
    expect(problems({ ...valid, replyText: 'a'.repeat(1001) })).toEqual({ replyText: MESSAGES.replyLong })
    // 250 emoji are 250 characters but 1,000 bytes; one more is too many
    expect(problems({ ...valid, replyText: '💌'.repeat(250) })).toEqual({})
    expect(problems({ ...valid, replyText: '💌'.repeat(251) })).toEqual({ replyText: MESSAGES.replyLong })
    expect(problems({ ...valid, name: 'n'.repeat(101) })).toEqual({ name: MESSAGES.nameLong })
    expect(problems({ ...valid, publicReplyText: 'p'.repeat(2201) })).toEqual({
      publicReplyText: MESSAGES.publicReplyLong,
    })
    // a DM automation has no public reply: leftover text from the comment trigger is not checked
    expect(problems({ ...valid, trigger: 'dm_keyword', publicReplyText: 'p'.repeat(2201) })).toEqual({})
  })

  it('needs the post when it watches one post, and at most 20 keywords', () => {
    expect(problems({ ...valid, postScope: 'one', mediaId: '' })).toEqual({ mediaId: MESSAGES.post })
    expect(problems({ ...valid, postScope: 'one', mediaId: '17895695668004550' })).toEqual({})
    const many = Array.from({ length: 21 }, (_, i) => `k${i}`)
    expect(problems({ ...valid, keywords: many })).toEqual({ keywords: MESSAGES.keywordsMany })
  })
})

describe('keyword chips', () => {
  it('adds typed or pasted keywords once each, ignoring case, and says why one was not added', () => {
    expect(addKeywords([], ' guide ,  free   PDF\nprice')).toEqual({
      keywords: ['guide', 'free PDF', 'price'],
      problem: null,
    })
    expect(addKeywords(['guide'], 'GUIDE, price')).toEqual({
      keywords: ['guide', 'price'],
      problem: '"GUIDE" is already a keyword.',
    })
    expect(addKeywords([], 'x'.repeat(61)).problem).toBe('A keyword can be at most 60 characters.')
    const twenty = Array.from({ length: 20 }, (_, i) => `k${i}`)
    expect(addKeywords(twenty, 'one more')).toEqual({ keywords: twenty, problem: MESSAGES.keywordsMany })
  })
})

describe('the row the form becomes', () => {
  it('keeps the post and public reply only for comments, trimmed, and reads back into the same form', () => {
    const comment = {
      ...valid,
      name: '  Lookbook ',
      postScope: 'one' as const,
      mediaId: '17895695668004550',
      replyText: ' Here it is ',
      publicReplyText: ' Sent you a DM ',
    }
    expect(automationRow(comment)).toEqual({
      account_id: ACCOUNT,
      name: 'Lookbook',
      trigger: 'comment_keyword',
      media_id: '17895695668004550',
      keywords: ['guide'],
      reply_text: 'Here it is',
      public_reply_text: 'Sent you a DM',
      followup_text: null,
      followup_delay_minutes: null,
      enabled: true,
    })
    expect(formValuesOf(automationRow(comment))).toEqual({
      ...comment,
      name: 'Lookbook',
      replyText: 'Here it is',
      publicReplyText: 'Sent you a DM',
      followupHours: '1',
      followupMinutes: '0',
    })
    expect(automationRow({ ...comment, postScope: 'any' }).media_id).toBeNull()
    expect(automationRow({ ...comment, publicReplyText: '   ' }).public_reply_text).toBeNull()
    const dm = automationRow({ ...comment, trigger: 'dm_keyword' })
    expect([dm.media_id, dm.public_reply_text]).toEqual([null, null])
  })
})

describe('the follow-up (the table checks, said first)', () => {
  const dm = { ...valid, trigger: 'dm_keyword' as const, followupOn: true, followupText: 'Still there?' }

  it('takes a text and a delay of 1 minute to 23 hours 59 minutes', () => {
    expect(problems({ ...dm, followupHours: '23', followupMinutes: '59' })).toEqual({})
    expect(problems({ ...dm, followupHours: '', followupMinutes: '1' })).toEqual({})
    expect(problems({ ...dm, followupHours: '0', followupMinutes: '0' })).toEqual({
      followupMinutes: MESSAGES.followupDelay,
    })
    expect(problems({ ...dm, followupHours: '24', followupMinutes: '0' })).toEqual({
      followupHours: MESSAGES.followupHours,
    })
    expect(problems({ ...dm, followupHours: '1.5', followupMinutes: '60' })).toEqual({
      followupHours: MESSAGES.followupHours,
      followupMinutes: MESSAGES.followupMinutes,
    })
    expect(problems({ ...dm, followupText: '  ' })).toEqual({ followupText: MESSAGES.followup })
    // counted in bytes, as Instagram and the table count: 501 two-byte letters are 1,002 bytes
    expect(problems({ ...dm, followupText: 'é'.repeat(501) })).toEqual({
      followupText: MESSAGES.followupLong,
    })
    expect(problems({ ...dm, followupText: 'é'.repeat(500) })).toEqual({})
  })

  it('is only for DM and story triggers: a comment drops it unchecked', () => {
    const comment = { ...dm, trigger: 'comment_keyword' as const, followupText: '' }
    expect(problems(comment)).toEqual({})
    expect(automationRow(comment)).toMatchObject({ followup_text: null, followup_delay_minutes: null })
    expect(canFollowUp('comment_keyword')).toBe(false)
    expect(['dm_keyword', 'story_mention', 'story_reply'].every((t) => canFollowUp(t as never))).toBe(true)
  })

  it('becomes the row and back, off as nulls', () => {
    const row = automationRow({
      ...dm,
      followupHours: '2',
      followupMinutes: '30',
      followupText: ' Still there? ',
    })
    expect(row).toMatchObject({ followup_text: 'Still there?', followup_delay_minutes: 150 })
    expect(formValuesOf(row)).toMatchObject({
      followupOn: true,
      followupText: 'Still there?',
      followupHours: '2',
      followupMinutes: '30',
    })
    expect(automationRow({ ...dm, followupOn: false })).toMatchObject({
      followup_text: null,
      followup_delay_minutes: null,
    })
    expect([delayLabel(150), delayLabel(45), delayLabel(1380), delayLabel(1439)]).toEqual([
      '2 h 30 min',
      '45 min',
      '23 h',
      '23 h 59 min',
    ])
  })
})

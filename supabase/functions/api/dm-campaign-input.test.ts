// DM campaign bodies (product.md §5, §9): three message slots with at least one written, follow-ups after
// 1-30 days, an IANA time zone and an HH:MM window on lowercase weekdays, a daily limit of 1-500.
import assert from 'node:assert/strict'
import { type CreateDmCampaignBody, dailyLimitOf, isTimeZone } from '@reachflow/domain'
import { HttpError } from '../_shared/errors.ts'
import { parseWith, type z } from '../_shared/validation.ts'
import { createCampaignSchema, updateCampaignSchema } from './dm-campaign-input.ts'

const ACCOUNT = '6f1c3c2e-0a3a-4a57-9e0b-0d6b1d8e4a11'
const SOURCE = '0d0a2f7e-4c1f-4b8b-8f54-2b6d2b9d1c22'
const base = {
  name: 'Founders',
  account_id: ACCOUNT,
  scraping_campaign_id: SOURCE,
  sequences: { messages: ['', 'Hi {name}', ''] },
}

function refusal(input: unknown, schema: Parameters<typeof parseWith>[0] = createCampaignSchema): string {
  try {
    parseWith(schema, input)
  } catch (error) {
    assert.ok(error instanceof HttpError)
    assert.equal(error.status, 400)
    return error.message
  }
  throw new Error('expected a refusal')
}

Deno.test('defaults: follow-ups off after 3 days, 09:00-17:00 Monday to Friday UTC with random days off, a draft', () => {
  const body = parseWith(createCampaignSchema, base)
  assert.deepEqual(body.sequences, {
    messages: ['', 'Hi {name}', ''],
    noFirstnameMessage: '',
    followUpEnabled: false,
    followUpMessages: [],
    followUpDays: 3,
  })
  assert.deepEqual(body.schedule, {
    timezone: 'UTC',
    timeFrom: '09:00',
    timeTo: '17:00',
    activeDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    randomDaysOff: true,
  })
  assert.equal(body.run_immediately, false)
  assert.equal(dailyLimitOf(body), 50)
})

Deno.test('use the winner after N sends per variant: off by default, 30 to 10,000, null turns it off', () => {
  assert.equal(parseWith(createCampaignSchema, base).winner_after_sends, undefined)
  assert.equal(parseWith(createCampaignSchema, { ...base, winner_after_sends: 100 }).winner_after_sends, 100)
  assert.equal(parseWith(updateCampaignSchema, { winner_after_sends: null }).winner_after_sends, null)
  for (const value of [29, 10_001, 50.5, '100'])
    assert.equal(
      refusal({ ...base, winner_after_sends: value }),
      'Use the winner after 30 to 10,000 sends per variant',
    )
})

Deno.test('each rule has its own clear message', () => {
  assert.equal(
    refusal({ ...base, sequences: { messages: ['', '  ', ''] } }),
    'Write at least one initial message',
  )
  assert.equal(
    refusal({ ...base, sequences: { messages: ['a'], followUpDays: 31 } }),
    'Follow-up days must be a whole number from 1 to 30',
  )
  assert.equal(
    refusal({ ...base, sequences: { messages: ['a'], followUpDays: 1.5 } }),
    'Follow-up days must be a whole number from 1 to 30',
  )
  assert.equal(
    refusal({ ...base, daily_message_limit: 0 }),
    'Daily message limit must be a whole number from 1 to 500',
  )
  assert.equal(
    refusal({ ...base, daily_message_limit: 501 }),
    'Daily message limit must be a whole number from 1 to 500',
  )
  assert.equal(
    refusal({ ...base, schedule: { timezone: 'Europe/Atlantis' } }),
    'Unknown time zone "Europe/Atlantis"',
  )
  assert.equal(
    refusal({ ...base, schedule: { timeFrom: '9:00' } }),
    'Schedule times must be HH:MM (00:00-23:59)',
  )
  assert.equal(
    refusal({ ...base, schedule: { timeFrom: '17:00', timeTo: '09:00' } }),
    "The schedule's end time must be later than its start time",
  )
  assert.equal(refusal({ ...base, schedule: { activeDays: [] } }), 'Choose at least one active day')
  assert.equal(
    refusal({ ...base, schedule: { activeDays: ['Monday'] } }),
    'Active days are lowercase weekday names, got "Monday"',
  )
  assert.equal(refusal({ ...base, name: '  ' }), 'Campaign name is required')
  assert.equal(
    refusal({ ...base, account_id: 'acc' }),
    'Choose one of your social accounts for this campaign',
  )
  assert.equal(refusal({ ...base, scraping_campaign_id: null }), 'Choose a lead source for this campaign')
  assert.equal(refusal({ ...base, platform: 'linkedin' }), 'Platform must be twitter or instagram')
  assert.equal(refusal({}, updateCampaignSchema), 'Nothing to update')
})

Deno.test('a schedule in any IANA zone, days de-duplicated', () => {
  const body = parseWith(createCampaignSchema, {
    ...base,
    schedule: {
      timezone: 'America/New_York',
      timeFrom: '08:30',
      timeTo: '20:00',
      activeDays: ['saturday', 'saturday', 'sunday'],
      randomDaysOff: false,
    },
  })
  assert.deepEqual(body.schedule, {
    timezone: 'America/New_York',
    timeFrom: '08:30',
    timeTo: '20:00',
    activeDays: ['saturday', 'sunday'],
    randomDaysOff: false,
  })
  assert.equal(isTimeZone('Asia/Kolkata'), true)
  assert.equal(isTimeZone('Nowhere/City'), false)
})

Deno.test('the daily limit: given, else the wizard\'s target count ("daily limit or 100"), else 50', () => {
  assert.equal(dailyLimitOf({ daily_message_limit: 120, target_count: 300 }), 120)
  assert.equal(dailyLimitOf({ target_count: 80 }), 80)
  assert.equal(dailyLimitOf({ target_count: 5000 }), 50)
  assert.equal(dailyLimitOf({}), 50)
})

Deno.test('an update changes only what it names', () => {
  assert.deepEqual(parseWith(updateCampaignSchema, { name: 'Renamed' }), { name: 'Renamed' })
  const schedule = parseWith(updateCampaignSchema, { schedule: { timezone: 'Europe/Berlin' } }).schedule
  assert.equal(schedule?.timezone, 'Europe/Berlin')
})

Deno.test('the body the web wizard sends (the shared request type) is what the create schema accepts', () => {
  const wizard: CreateDmCampaignBody = {
    id: '3b8f7c1e-5d2a-4e6f-9a1b-2c3d4e5f6a7b',
    name: 'Founders DM Campaign',
    account_id: ACCOUNT,
    platform: 'twitter',
    scraping_campaign_id: SOURCE,
    sequences: {
      messages: ['Hi {name}', 'Hello {name}'],
      noFirstnameMessage: '',
      followUpEnabled: true,
      followUpMessages: ['Any thoughts?'],
      followUpDays: 3,
    },
    schedule: {
      timezone: 'Europe/Berlin',
      timeFrom: '09:00',
      timeTo: '17:00',
      activeDays: ['monday', 'friday'],
      randomDaysOff: true,
    },
    run_immediately: false,
    target_count: 50,
    daily_message_limit: 50,
    winner_after_sends: 100,
    message_template: 'Hi {name}',
    industry: null,
    stage: null,
    ai_personalization: false,
  }
  // The type check is half the test: a field the shared type and the schema disagree on fails here.
  const input: z.input<typeof createCampaignSchema> = wizard
  const body = parseWith(createCampaignSchema, input)
  assert.deepEqual(body.sequences, wizard.sequences)
  assert.deepEqual(body.schedule, wizard.schedule)
  assert.equal(body.winner_after_sends, 100)
})

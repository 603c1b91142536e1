import assert from 'node:assert/strict'
import { expectedXApiCostText, formatUsd, xApiCostMills, xApiPricesText, xApiUsageOf } from './x-api-cost.ts'

const SELF = '100'

Deno.test('a DM sent is one create; an error answer counts nothing', () => {
  const path = '/2/dm_conversations/with/200/messages'
  assert.deepEqual(
    xApiUsageOf({ method: 'POST', path, ok: true, data: { data: { dm_event_id: 'e1' } }, selfId: SELF }),
    { kind: 'dm_create', keys: ['e1'] },
  )
  assert.equal(xApiUsageOf({ method: 'POST', path, ok: false, data: null, selfId: SELF }), null)
})

Deno.test('DM events are counted per resource returned, the inbox and a thread alike', () => {
  const data = { data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] }
  assert.deepEqual(
    xApiUsageOf({ method: 'GET', path: '/2/dm_events?max_results=100', ok: true, data, selfId: SELF }),
    { kind: 'dm_event_read', keys: ['a', 'b', 'c'] },
  )
  assert.deepEqual(
    xApiUsageOf({
      method: 'GET',
      path: '/2/dm_conversations/100-200/dm_events',
      ok: true,
      data: {},
      selfId: SELF,
    }),
    { kind: 'dm_event_read', keys: [] },
  )
})

Deno.test('reading the account itself is an owned read; anyone else is a user read', () => {
  const user = (path: string, id: string) =>
    xApiUsageOf({ method: 'GET', path, ok: true, data: { data: { id } }, selfId: SELF })?.kind
  assert.equal(user('/2/users/me', SELF), 'own_read')
  assert.equal(user(`/2/users/${SELF}`, SELF), 'own_read')
  assert.equal(user('/2/users/200', '200'), 'user_read')
  assert.equal(user('/2/users/by/username/lead', '300'), 'user_read')
})

Deno.test('prices come from the one table, shown rounded up to the cent', () => {
  assert.equal(xApiCostMills({ dm_create: 100 }), 1500)
  assert.equal(xApiCostMills({ dm_create: 2, dm_event_read: 3, user_read: 1, own_read: 1 }), 71)
  assert.equal(formatUsd(71), '$0.08')
  assert.equal(formatUsd(1500), '$1.50')
  assert.equal(formatUsd(0), '$0.00')
})

Deno.test('the expected cost: $0.015 a DM, and the inbox reads at most the newest 300 events plus the day’s new ones', () => {
  assert.equal(
    expectedXApiCostText(100),
    'About $1.50 a day at 100 DMs, plus up to $4.00 a day for reading the inbox.',
  )
})

Deno.test('the prices as X writes them, to a tenth of a cent', () => {
  assert.equal(
    xApiPricesText(),
    'X’s prices: $0.015 a DM sent, $0.010 a DM event read and $0.010 a person looked up (each once a day), $0.001 a read of your own profile.',
  )
})

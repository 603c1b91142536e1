// The sandboxes' messages: what counts as unread does not depend on the clock ticking between events.
import { describe, expect, it } from 'vitest'
import { Messaging, newAccount } from './messaging.ts'
import { Population } from './population.ts'
import { World } from './state.ts'

function sandboxAt(now: number) {
  const world = new World(undefined)
  world.clock.now = () => now
  const population = new Population({ seed: 7, size: 64, idPrefix: '1400000', allowDots: false })
  const messaging = new Messaging(world, population, {
    threadId: (account, peerId) => `${account.id}-${peerId}`,
    seed: 'messaging-test',
  })
  const account = newAccount({ id: 'acc1', username: 'own_account', name: 'Own' }, now)
  world.accounts.set(account.id, account)
  const peer = population.profiles[0]
  if (!peer) throw new Error('no profile in the population')
  return { world, messaging, account, peerId: peer.id }
}

describe('Messaging', () => {
  it('a reply in the same millisecond as the DM that marked the thread read is unread', () => {
    const { messaging, account, peerId } = sandboxAt(1_700_000_000_000)
    const { thread } = messaging.deliver(account, peerId, 'Hi')
    expect(messaging.unread(thread)).toBe(0)
    const reply = messaging.receive(thread, 'Sounds good')
    expect(reply.at).toBeGreaterThan(thread.readAt)
    expect(messaging.unread(thread)).toBe(1)
  })

  it('a reply on a later tick keeps the clock time it arrived at', () => {
    const { world, messaging, account, peerId } = sandboxAt(1_700_000_000_000)
    const { thread } = messaging.deliver(account, peerId, 'Hi')
    world.clock.now = () => 1_700_000_005_000
    expect(messaging.receive(thread, 'Later').at).toBe(1_700_000_005_000)
    expect(messaging.unread(thread)).toBe(1)
  })
})

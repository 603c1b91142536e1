// Opt-out words: which replies opt out (defaults and a customer's own words) and which edits are refused
// with what message (the database refuses the same ones: 42-contacts-do-not-contact-screen.test.sql).
import assert from 'node:assert/strict'
import { isOptOut, optOutMatch, optOutWordProblem, optOutWordsProblem } from './opt-out.ts'

Deno.test('the defaults: "unsubscribe" anywhere, "stop" at the start of a short reply', () => {
  for (const text of [
    'stop',
    'STOP!',
    'Stop please',
    'stop messaging me',
    'Please unsubscribe me',
    'UNSUBSCRIBE.',
  ])
    assert.ok(isOptOut(text), text)
  for (const text of [
    "Don't stop",
    'stop by our booth next week please',
    'Sure, tell me more',
    'unstoppable',
  ])
    assert.ok(!isOptOut(text), text)
})

Deno.test("a customer's phrases match as whole words, in any case and punctuation", () => {
  const words = { anywhere: ['remove me', "don't message"], atStart: ['no thanks'] }
  assert.equal(optOutMatch('Please REMOVE me!', words), 'remove me')
  assert.equal(optOutMatch("Don't message me again", words), "don't message")
  assert.equal(optOutMatch('No thanks.', words), 'no thanks')
  assert.equal(optOutMatch('removed meanwhile', words), null)
  assert.equal(optOutMatch('no thanks for now, but later', words), null)
})

Deno.test('edits are refused with the reason', () => {
  assert.equal(optOutWordProblem('  '), 'An opt-out word cannot be empty.')
  assert.equal(optOutWordProblem('stop!!'), '"stop!!" can only hold letters, digits, spaces, \' and -.')
  assert.equal(
    optOutWordProblem('a'.repeat(41)),
    '"aaaaaaaaaaaaaaaaaaaa…" is too long: at most 40 characters.',
  )
  assert.equal(optOutWordProblem('ne me contactez plus'), null)
  assert.equal(
    optOutWordsProblem({ anywhere: [], atStart: [] }),
    'Keep at least one opt-out word: people must always be able to say stop.',
  )
  assert.equal(
    optOutWordsProblem({ anywhere: Array.from({ length: 21 }, (_, i) => `w${i}`), atStart: [] }),
    'Each list holds at most 20 words.',
  )
})

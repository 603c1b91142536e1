import assert from 'node:assert/strict'
import { contactsIn, foreignContactIn } from './contacts.ts'

/** What the customer wrote: their template and offer, with their own link, e-mail and handle. */
const CUSTOMER = [
  'Hi {name}, book a call at https://acme.com/demo or write to sales@acme.com (@acme_hq)',
  'Onboarding audits for SaaS teams, see acme.com/pricing',
]

// Each line reads, to a person, as a way to reach a stranger; none is in what the customer wrote.
const FOREIGN: readonly string[] = [
  'shop at evil.hk or evil.zip | 203.0.113.7/login',
  'visit evil.vip for more',
  'evil.bond has the deal',
  'see evil.hk',
  'evil.jp/promo',
  'grab it at evil.zip',
  'go to evil dot com',
  'evil DOT io',
  'evil (dot) net',
  'evil[dot]org',
  'evil[.]com',
  'evil{.}co',
  'evil . hk',
  'evil .hk',
  'evil\u00b7hk',
  'evil \u00b7 com',
  'evil\u3002jp',
  'evil\uff0ecom',
  'ｅｖｉｌ．ｃｏｍ',
  'evil\u30fbshop',
  '203.0.113.7',
  '203.0.113.7:8080',
  '203.0.113.7/login',
  'http://203.0.113.7:8443/x',
  'hxxp://evil.example/path',
  'https://xn--80ak6aa92e.com',
  '[2001:db8::1]:443/login',
  'mail bob@evilhost',
  'write to bob@evil.example',
  'bob[at]evil.example',
  'bob (at) evilcorp',
  'IG: evil_handle',
  'ig - evil.shop.bot',
  'Telegram: evilbot',
  'snapchat=evilsnap',
  'follow @evil_bot',
  'ping @evil.bot today',
  'acme.com/other',
  'www.evil',
  'evil.co.uk/login',
  'еvil.com',
  'аcme.com',
  'evil.xn--p1ai',
  'evil.рф',
  'sales@acme.co',
]

Deno.test(`a stranger's link, domain, IP, e-mail or handle is refused, however written (${FOREIGN.length} cases)`, () => {
  const missed = FOREIGN.filter((line) => foreignContactIn(`Hi Ann, ${line}. Talk soon!`, CUSTOMER) === null)
  assert.deepEqual(missed, [])
})

Deno.test('what the customer wrote may be repeated, in any of the ways a reader would recognise', () => {
  for (const fine of [
    'Hi Ann, book a call at https://acme.com/demo',
    'Hi Ann, see acme.com/demo or acme.com',
    'Hi Ann, pricing is at ACME.com/pricing.',
    'Hi Ann, write to Sales@Acme.com!',
    'Hi Ann, we are @acme_hq on Instagram',
    'Hi Ann, IG: acme_hq',
    'Hi Ann, acme dot com/demo',
    'Hi Ann, www.acme.com',
  ])
    assert.equal(foreignContactIn(fine, CUSTOMER), null, fine)
})

Deno.test('ordinary prose is not read as a contact', () => {
  for (const prose of [
    'Loved your Node.js and socket talk, e.g. the demo',
    'Great post. So much to learn. Now onto the next one!',
    'We cut churn 3.5% in 2.5 weeks, version 1.2.3 ships soon',
    'Meet at noon? I am at the office',
    'Your polka dot dress post was fun',
    'Priced at 3.50/hr and 10:30 works',
    'Connect the dots, then act',
    'I read your bio at lunch: X marks the spot',
    'Bottom line: growth matters. Signal: strong',
  ])
    assert.deepEqual(contactsIn(prose), [], prose)
})

Deno.test('contacts are reported as compared: lower case, no scheme, no www, no trailing punctuation', () => {
  const refs = (text: string) => contactsIn(text).map((r) => `${r.kind} ${r.value}`)
  assert.deepEqual(refs('shop at evil.hk or evil.zip | 203.0.113.7/login'), [
    'link 203.0.113.7/login',
    'link evil.hk',
    'link evil.zip',
  ])
  assert.deepEqual(refs('see WWW.Evil.com/Path.'), ['link evil.com/path'])
  assert.deepEqual(refs('mail me: Bob@Evil.Example.'), ['email bob@evil.example'])
  assert.deepEqual(refs('ping @evil_bot or @ Acme'), ['handle @evil_bot'])
  assert.deepEqual(refs('IG: Evil_Bot.'), ['handle @evil_bot'])
})

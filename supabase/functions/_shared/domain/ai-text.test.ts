import assert from 'node:assert/strict'
import { bannedPhraseIn, contactsIn, foldForReading, foreignContactIn } from './ai-text.ts'

Deno.test('banned phrases are found however they are disguised', () => {
  for (const disguised of [
    'Click\u00a0here to book', // no-break space
    'Сlick here', // Cyrillic Es
    'CLΙCK HERE', // Greek capital iota
    'cl\u200bick\u200d here', // zero-width space and joiner
    'cli\u00adck here', // soft hyphen
    'click\u2060here', // word joiner: the words run together
    '\uff43\uff4c\uff49\uff43\uff4b here', // fullwidth
    '𝐜𝐥𝐢𝐜𝐤 𝐡𝐞𝐫𝐞', // mathematical bold
    'ⓒⓛⓘⓒⓚ here', // enclosed
    'clíck hère', // accents
    'ᴄʟɪᴄᴋ ʜᴇʀᴇ', // small capitals
    'click-here', // punctuation
    'click\n\there', // line break and tab
    'c l i c k   h e r e', // spaced letters
    'c.l.i.c.k here',
  ])
    assert.equal(bannedPhraseIn(`Great profile! ${disguised} now.`), 'click here', JSON.stringify(disguised))
  assert.equal(bannedPhraseIn('As an ΑΙ model…'), 'as an ai') // Greek Alpha, Iota
  assert.equal(bannedPhraseIn('I can’t help with that'), "i can't help") // curly apostrophe
  assert.equal(bannedPhraseIn('totally 100 % free'), '100% free')
  assert.equal(bannedPhraseIn('no risk\u2011free claims'), 'risk-free') // non-breaking hyphen
})

Deno.test('banned phrases match whole words only, so ordinary text passes', () => {
  for (const fine of [
    'The exact nowadays-standard approach', // "act now" inside words
    'She has an aim', // "as an ai" across word parts
    'I clicked here yesterday',
    'Your Node.js post was great',
    'A risk freezer',
  ])
    assert.equal(bannedPhraseIn(fine), null, fine)
})

Deno.test('folding reads look-alikes as Latin and drops what is invisible', () => {
  assert.equal(foldForReading('Рау\u200bРаl'), 'paypal')
  assert.equal(foldForReading('ⓐⓒⓜⓔ'), 'acme')
})

Deno.test('links, e-mail addresses and handles are found, also fullwidth or defanged', () => {
  const refs = (text: string) => contactsIn(text).map((r) => `${r.kind} ${r.value}`)
  assert.deepEqual(refs('re-verify at http://evil.example/login now'), ['link evil.example/login'])
  assert.deepEqual(refs('see WWW.Evil.com/Path.'), ['link evil.com/path'])
  assert.deepEqual(refs('go to evil.com or evil[.]io'), ['link evil.com', 'link evil.io'])
  assert.deepEqual(refs('ｅｖｉｌ．ｃｏｍ'), ['link evil.com'])
  assert.deepEqual(refs('evil\u3002example/login'), ['link evil.example/login'])
  assert.deepEqual(refs('mail me: Bob@Evil.Example.'), ['email bob@evil.example'])
  assert.deepEqual(refs('ping @evil_bot or @ Acme'), ['handle @evil_bot'])
  assert.deepEqual(refs('Loved your Node.js and socket talk, e.g. the demo'), [])
})

Deno.test('only links, e-mails and handles the customer wrote may appear', () => {
  const template = 'Hi Ann, book a call at https://acme.com/demo or write to sales@acme.com (@acme_hq)'
  assert.equal(
    foreignContactIn('Hi Ann, see acme.com/demo, sales@acme.com, @Acme_HQ, acme.com', [template]),
    null,
  )
  assert.deepEqual(foreignContactIn('Hi Ann, re-verify at http://evil.example/login now', [template]), {
    kind: 'link',
    value: 'evil.example/login',
  })
  assert.deepEqual(foreignContactIn('Hi Ann, acme.com/other', [template]), {
    kind: 'link',
    value: 'acme.com/other',
  })
  assert.deepEqual(foreignContactIn('Hi Ann, write to me@evil.example', [template]), {
    kind: 'email',
    value: 'me@evil.example',
  })
  assert.deepEqual(foreignContactIn('Hi Ann, follow @evil', [template]), { kind: 'handle', value: '@evil' })
  assert.equal(foreignContactIn('Hi, no links here', []), null)
})

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

// Each line disguises a banned phrase the way a spammer would; [text, the phrase it must be read as].
const DISGUISED: readonly (readonly [string, string])[] = [
  ['cl1ck here', 'click here'],
  ['CL1CK HERE', 'click here'],
  ['c1ick h3re', 'click here'],
  ['cl!ck here', 'click here'],
  ['c|ick here', 'click here'],
  ['clICK HERE', 'click here'],
  ['ACT N0W', 'act now'],
  ['@ct now', 'act now'],
  ['4ct n0w', 'act now'],
  ['a c t  n o w', 'act now'],
  ['1OO% free', '100% free'],
  ['lOO% FREE', '100% free'],
  ['100 % fr33', '100% free'],
  ['１００％ ｆｒｅｅ', '100% free'],
  ['r1sk-fr33', 'risk-free'],
  ['ri$k free', 'risk-free'], // the first banned phrase read that way
  ['guaranteed re5ults', 'guaranteed results'],
  ['guarant33d results', 'guaranteed results'],
  ['l1m1ted t1me 0ffer', 'limited time offer'],
  ['as an A1', 'as an ai'],
  ['as an @i', 'as an ai'],
  ['language rnodel', 'language model'],
  ['ᴄʟɪᴄᴋ ʜᴇʀᴇ', 'click here'],
  ['аct nоw', 'act now'], // Cyrillic a and o
  ['clіck hеrе', 'click here'], // Cyrillic і and е
  ['ΑCT ΝOW', 'act now'], // Greek Alpha and Nu
  ['ցuaranteed results', 'guaranteed results'], // Armenian co
  ['act nօw', 'act now'], // Armenian oh
  ['rіsk free', 'risk-free'], // Cyrillic i
  ['ᏟᏞᎥᏟᏦ here', 'click here'], // Cherokee capitals
  ['\u13df\u13de\u13a5\u13df\u13e6 here'.toLowerCase(), 'click here'], // Cherokee small letters
  ['ƈlick here', 'click here'], // c with hook
  ['ƈlɨck here', 'click here'], // c with hook, i with stroke
  ['act ɲow', 'act now'], // n with left hook
  ['ⱳhat a risk-ƒree deal', 'risk-free'],
  ['ʂo, clіck hеrе', 'click here'],
  ['i c4n’t he1p', "i can't help"],
  ['I CANN0T ASS1ST', 'i cannot assist'],
]

Deno.test(`banned phrases are read through digits, symbols and look-alikes (${DISGUISED.length} cases)`, () => {
  const missed = DISGUISED.filter(([text, phrase]) => bannedPhraseIn(`Hi Ann! ${text} today.`) !== phrase)
  assert.deepEqual(missed, [])
})

Deno.test('the skeleton does not turn ordinary words into banned phrases', () => {
  for (const fine of [
    'Act 1 of your now-famous talk',
    'Loved the click-through numbers here',
    'Your 4 tips for free time',
    'Cl1ent work that is risky, freeing',
    'Guaranteed resultant growth',
    'As analysts say',
  ])
    assert.equal(bannedPhraseIn(fine), null, fine)
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

// The pack shape rule without a database: same keys, same kinds, non-empty strings, regexes that
// compile, lists uniform or fixed tuples, numbers keeping the default's sign and wholeness.
import assert from 'node:assert/strict'
import { isRegexFact, packBytes, packIssues, packVersion, parsePackText } from './platform-pack.ts'

const REFERENCE = {
  version: 'x-1',
  baseUrl: 'https://x.com',
  paths: { home: '/home', profile: '/{username}' },
  selectors: { composer: 'textarea', sendButton: 'button' },
  sendStatus: { delivered: ['sent', 'delivered'] },
  signalTexts: [{ pattern: { source: 'rate limit', flags: 'i' }, code: '88' }],
  pair: ['/home', 3],
  none: [],
  optional: null,
  enabled: true,
  pageSize: 20,
  ratio: 0.5,
  offset: -1,
}

const messages = (candidate: unknown) => packIssues(candidate, REFERENCE).map((i) => i.message)

Deno.test('the default itself, and a copy with other values of the same kinds, fit', () => {
  assert.deepEqual(packIssues(REFERENCE, REFERENCE), [])
  assert.deepEqual(
    messages({
      ...REFERENCE,
      version: 'x-2',
      selectors: { composer: 'div[role=textbox]', sendButton: '[data-testid=send]' },
      sendStatus: { delivered: ['read'] },
      signalTexts: [
        { pattern: { source: '^try again$', flags: 'im' }, code: '88' },
        { pattern: { source: 'locked', flags: '' }, code: '326' },
      ],
      pair: ['/explore', 7],
      pageSize: 40,
      ratio: 2.5,
      offset: -3,
    }),
    [],
  )
})

Deno.test('every problem is named by its path', () => {
  assert.deepEqual(
    messages({
      version: '',
      baseUrl: REFERENCE.baseUrl,
      paths: REFERENCE.paths,
      selectors: { composer: '   ', sendButton: 5, extra: 'x' },
      sendStatus: { delivered: 'sent' },
      signalTexts: [
        { pattern: { source: 'a', flags: 'gg' }, code: '88' },
        { pattern: 'rate limit', code: '88' },
      ],
      pair: ['/home'],
      none: ['x'],
      optional: 'x',
      enabled: 'yes',
      pageSize: 2.5,
      ratio: 0,
      offset: 'x',
    }),
    [
      'version must be a non-empty string',
      'selectors.composer must be a non-empty string',
      'selectors.sendButton must be a non-empty string',
      'selectors.extra is not a fact the runner knows (remove it)',
      'sendStatus.delivered must be a list',
      'signalTexts[0].pattern.flags must be regex flags (d, g, i, m, s, u, v, y, each once)',
      'signalTexts[1].pattern must be a regex {source, flags}',
      'pair must have exactly 2 items',
      'none must be an empty list',
      'optional must be null',
      'enabled must be a boolean',
      'pageSize must be a whole number greater than 0',
      'ratio must be a number greater than 0',
      'offset must be a whole number',
    ],
  )
  assert.deepEqual(messages([]), ['The pack must be an object'])
  const { selectors: _, ...withoutSelectors } = REFERENCE
  assert.deepEqual(messages(withoutSelectors), ['selectors is missing'])
})

Deno.test('a regex that does not compile says why', () => {
  const [issue] = packIssues(
    { ...REFERENCE, signalTexts: [{ pattern: { source: '(open', flags: 'i' }, code: '88' }] },
    REFERENCE,
  )
  assert.equal(issue?.path, 'signalTexts[0].pattern')
  assert.match(issue?.message ?? '', /^signalTexts\[0\]\.pattern is not a valid regex: .*\(open/)
})

Deno.test('helpers: version, regex facts, size, JSON text', () => {
  assert.equal(packVersion({ version: ' x-3 ' }), 'x-3')
  assert.equal(packVersion({ version: 3 }), null)
  assert.equal(isRegexFact({ source: 'a', flags: '' }), true)
  assert.equal(isRegexFact({ source: 'a', flags: '', extra: 1 }), false)
  assert.equal(packBytes({ a: 'é' }), 10)
  assert.deepEqual(parsePackText('{"version": "x"}'), { ok: true, facts: { version: 'x' } })
  const broken = parsePackText('{"version": ')
  assert.equal(broken.ok, false)
  assert.match(broken.ok ? '' : broken.message, /^The pack is not valid JSON: /)
})

Deno.test("a path is a path on the platform's own origin: anything resolving elsewhere is refused", () => {
  const pathIssues = (home: string) => messages({ ...REFERENCE, paths: { home, profile: '/{username}' } })
  for (const home of ['/explore', '/i/chat/{id}', '/search?q={query}&f=live', '/a//b', '/@handle'])
    assert.deepEqual(pathIssues(home), [], home)
  for (const home of [
    '.evil.example/steal',
    '@evil.example/steal',
    '//evil.example',
    '/\\evil.example/steal',
    '/\t/evil.example',
    'https://evil.example/home',
    'home',
  ])
    assert.deepEqual(
      pathIssues(home),
      ["paths.home must be a path on the platform's own site, starting with a single /"],
      JSON.stringify(home),
    )
  assert.deepEqual(messages({ ...REFERENCE, baseUrl: 'https://x.com.evil.example' }), [
    'baseUrl must be https://x.com',
  ])
  assert.deepEqual(messages({ ...REFERENCE, baseUrl: 'https://x.com/' }), [])
})

Deno.test('a regex that can backtrack catastrophically is refused, an ordinary one is not', () => {
  const regexIssues = (source: string) =>
    messages({ ...REFERENCE, signalTexts: [{ pattern: { source, flags: 'i' }, code: '88' }] })
  for (const source of [
    '(a+)+$',
    '(a|a)*b',
    '(.*)*x',
    '^(\\w+\\s?)*$',
    '(?:[a-z]+){2,}!',
    '((ab)*)+c',
    '(x+x+)+y',
  ])
    assert.deepEqual(
      regexIssues(source),
      [
        'signalTexts[0].pattern can take exponential time (a repeated group that itself repeats or has alternatives); rewrite it without nesting',
      ],
      source,
    )
  for (const source of [
    'rate limit',
    'too many (incorrect )?attempts|x chat is locked',
    '^u(?:%3D|=)(\\d+)$',
    '^/i/chat/(\\d+-\\d+)$',
    '[(a+)+]*',
    '\\(a+\\)+',
    '(ab){2}',
  ])
    assert.deepEqual(regexIssues(source), [], source)
})

// The fast-check material the fuzzers draw from: hostile strings, JSON bodies that look like the
// product's (its real keys with wrong values) or like nothing at all, and pasted X cookies of every
// malformed kind. Pinned fast-check (root package.json) and fixed seeds make every run repeatable.
import fc from 'fast-check'

/** Strings an attacker or a broken client sends: SQL, paths, encodings, control bytes, huge ones. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    "'; drop table public.reliability_fuzz_canary; --",
    "' or 1=1 --",
    '" or ""="',
    "1); update public.reliability_fuzz_canary set note = 'gone'; --",
    '$$; select pg_sleep(5); $$',
    "\\'; select 1; --",
    '../../etc/passwd',
    '%00',
    '\u0000',
    '\ud800',
    '{{7*7}}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection attempt, on purpose
    '${process.env}',
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    'NaN',
    'Infinity',
    '-1',
    '1e309',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '',
    ' ',
    'twitter',
    'instagram',
    'growth',
    'monthly',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.uuid(),
  fc.string({ minLength: 5000, maxLength: 20_000, unit: fc.constantFrom('a', "'", ';', '{') }),
)

const scalar = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e308),
  fc.boolean(),
  fc.constant(null),
)

const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 5 }),
    fc.dictionary(nastyString, tie('v'), { maxKeys: 4 }),
  ),
})).v

/** The keys the product's bodies use, so most cases get past "unknown shape" into the real checks. */
const KEYS = [
  'name',
  'platform',
  'username',
  'authData',
  'password',
  'secretKey',
  'cookies',
  'chatPasscode',
  'proxyUrl',
  'account_id',
  'accountId',
  'sources',
  'type',
  'value',
  'target_count',
  'filters',
  'min_followers',
  'max_followers',
  'scraping_campaign_id',
  'lead_list_id',
  'lead_ids',
  'sequences',
  'messages',
  'schedule',
  'timezone',
  'timeFrom',
  'timeTo',
  'activeDays',
  'randomDaysOff',
  'run_immediately',
  'daily_message_limit',
  'industry',
  'stage',
  'status',
  'planType',
  'billingPeriod',
  'accountCount',
  'successUrl',
  'cancelUrl',
  'user_id',
  'id',
  '__proto__',
  'constructor',
  'prototype',
]

const productish = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 8 })

/** A JSON body: product-shaped with wrong values, any JSON at all, or bytes that are not JSON. */
export const body = fc.oneof(
  { arbitrary: productish.map((v) => JSON.stringify(v)), weight: 5 },
  { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), weight: 2 },
  { arbitrary: nastyString, weight: 1 },
  { arbitrary: fc.constantFrom('{', '[', '{"a":', 'null', '"str"', '{"a":1}}', '\ufeff{}'), weight: 1 },
)

const cookieObject = fc.record(
  {
    name: fc.oneof(fc.constantFrom('auth_token', 'ct0', 'twid', 'kdt'), nastyString, value),
    value: fc.oneof(
      fc.string({ maxLength: 200, unit: fc.constantFrom(...'0123456789abcdef') }),
      nastyString,
      value,
    ),
    domain: fc.oneof(fc.constantFrom('.x.com', '.twitter.com', 'evil.com', ''), nastyString),
    path: fc.oneof(fc.constant('/'), nastyString),
    expirationDate: fc.oneof(fc.integer(), fc.double(), nastyString),
    httpOnly: fc.oneof(fc.boolean(), nastyString),
    secure: fc.oneof(fc.boolean(), value),
    sameSite: fc.oneof(fc.constantFrom('lax', 'strict', 'no_restriction', 'unspecified'), nastyString),
  },
  { requiredKeys: [] },
)

/** What a customer pastes as X cookies: broken JSON, wrong shapes, cookie headers, cookies.txt. */
export const pastedCookies = fc.oneof(
  fc.array(cookieObject, { maxLength: 6 }),
  fc.array(value, { maxLength: 4 }),
  fc.array(cookieObject, { maxLength: 3 }).map((c) => JSON.stringify(c)),
  fc.array(cookieObject, { maxLength: 3 }).map((c) => JSON.stringify(c).slice(0, -3)),
  fc.dictionary(nastyString, value, { maxKeys: 4 }),
  fc.tuple(nastyString, nastyString).map(([a, b]) => `auth_token=${a}; ct0=${b}`),
  fc
    .tuple(nastyString, nastyString)
    .map(([a, b]) => `.x.com\tTRUE\t/\tTRUE\t0\tauth_token\t${a}\n.x.com\tTRUE\t/\tTRUE\t0\tct0\t${b}`),
  value,
)

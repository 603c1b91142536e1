// The facts each adapter ships with, as the JSON pack operators see, validate against and override
// (packs/registry.ts). This is the one place that names the adapters' facts modules: today it
// renders the selector modules' data as JSON (regexes as {source, flags}, path builders as their
// templates); where the adapters keep their facts as one JSON object with a version, that object
// is the default as it is.
import {
  IG_APP_ID,
  IG_FOLLOWERS_PAGE_SIZE,
  IG_PATHS,
  IG_SELECTORS,
  IG_SIGNAL_TEXTS,
} from '../platforms/instagram/selectors.ts'
import {
  X_PASSCODE_TEXTS,
  X_PATHS,
  X_QUERY_IDS,
  X_SCRAPE_PAGE_SIZE,
  X_SELECTORS,
  X_SEND_ERROR_TEXTS,
  X_SEND_STATUS,
  X_SIGNAL_TEXTS,
  X_URL_SIGNS,
} from '../platforms/x/selectors.ts'
import type { AccountPlatform } from '../sessions/open.ts'

export type PackFacts = { version: string } & Record<string, unknown>

const regex = (pattern: RegExp) => ({ source: pattern.source, flags: pattern.flags })

/** Static paths as they are; path builders as their template ({id}, {username}), unencoded. */
function paths(table: Record<string, string | ((value: string) => string)>): Record<string, string> {
  const slot = 'PACKSLOT'
  return Object.fromEntries(
    Object.entries(table).map(([name, path]) => [
      name,
      typeof path === 'string' ? path : path(slot).replace(slot, name === 'profile' ? '{username}' : '{id}'),
    ]),
  )
}

const X_DEFAULT: PackFacts = {
  version: 'x-2026.11.26',
  paths: paths(X_PATHS),
  urlSigns: { signedOut: [...X_URL_SIGNS.signedOut], locked: [...X_URL_SIGNS.locked] },
  selectors: { ...X_SELECTORS },
  sendStatus: {
    delivered: [...X_SEND_STATUS.delivered],
    failed: [...X_SEND_STATUS.failed],
    pending: [...X_SEND_STATUS.pending],
  },
  sendErrorTexts: [...X_SEND_ERROR_TEXTS],
  passcodeTexts: { incorrect: regex(X_PASSCODE_TEXTS.incorrect), locked: regex(X_PASSCODE_TEXTS.locked) },
  signalTexts: X_SIGNAL_TEXTS.map(({ pattern, code }) => ({ pattern: regex(pattern), code })),
  queryIds: { ...X_QUERY_IDS },
  scrapePageSize: X_SCRAPE_PAGE_SIZE,
}

const INSTAGRAM_DEFAULT: PackFacts = {
  version: 'instagram-2026.11.26',
  paths: paths(IG_PATHS),
  selectors: Object.fromEntries(
    Object.entries(IG_SELECTORS).map(([name, value]) => [
      name,
      value instanceof RegExp ? regex(value) : Array.isArray(value) ? [...value] : value,
    ]),
  ),
  appId: IG_APP_ID,
  signalTexts: IG_SIGNAL_TEXTS.map(({ pattern, kind, code }) => ({ pattern: regex(pattern), kind, code })),
  followersPageSize: IG_FOLLOWERS_PAGE_SIZE,
}

/** Each platform's facts as the adapters in this build carry them. */
export const CODE_DEFAULT_FACTS: Record<AccountPlatform, PackFacts> = {
  twitter: X_DEFAULT,
  instagram: INSTAGRAM_DEFAULT,
}

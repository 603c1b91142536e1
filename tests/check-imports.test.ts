// The import-boundary check (`npm run lint`) on small repository trees: each rule broken once and
// kept once, imports written in every form (relative, tsconfig alias, type-only, re-export,
// dynamic), and text that only looks like an import.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { packagesFor, SHARED_PACKAGES, type SharedPackage } from '../scripts/aliases/list.ts'
import { checkImports } from '../scripts/check-imports.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** The `paths` scripts/aliases/generate.ts writes into a tsconfig in `dir` (`.` or `web`). */
const pathsOf = (packages: readonly SharedPackage[], up: string) =>
  Object.fromEntries(packages.map((p) => [p.name, [`${up}${p.entry}`]]))
const ROOT_TSCONFIG = JSON.stringify({
  extends: './tsconfig.base.json',
  compilerOptions: { paths: pathsOf(SHARED_PACKAGES, './') },
})
const WEB_TSCONFIG = JSON.stringify({
  extends: '../tsconfig.base.json',
  compilerOptions: { paths: { '@/*': ['./src/*'], ...pathsOf(packagesFor('web'), '../') } },
})

/** The problems the check finds in a tree of these files (plus the tsconfigs the repository has). */
function problemsIn(files: Record<string, string>): string[] {
  const root = mkdtempSync(join(tmpdir(), 'check-imports-'))
  roots.push(root)
  const all = {
    'tsconfig.base.json': '{"compilerOptions":{"strict":true}}',
    'tsconfig.json': ROOT_TSCONFIG,
    'web/tsconfig.json': WEB_TSCONFIG,
    ...files,
  }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return checkImports(root)
}

const FEATURES = 'a feature does not import another feature'
const SHARED = 'shared web code (src/components, src/lib, src/config, src/testing) does not import features'
const STACK = 'nothing but tests and scripts imports stack/'
const RUNNER = 'the runner imports only runner/src and supabase/functions/_shared'
const WEB_ONLY = 'the web app imports only web/src, @reachflow/domain, @reachflow/schemas and @reachflow/db'
const WEB_SERVER_CODE = `${WEB_ONLY} (the rest of supabase/functions/_shared is server code: keys, the service role)`
const RUNNER_BY_NAME =
  'the runner imports supabase/functions/_shared only by the names scripts/aliases/list.ts gives it (@reachflow/domain, @reachflow/db, @reachflow/ai, @reachflow/instagram-api, @reachflow/x-verify)'
const FUNCTIONS = 'a function does not import another function'
const FUNCTION_OUTSIDE = 'a function imports only its own folder and supabase/functions/_shared'

describe('web', () => {
  it('a feature imports its own files, shared code and _shared, not another feature in any form', () => {
    const problems = problemsIn({
      'web/src/features/campaigns/components/list.tsx': [
        "import { get } from '../api/get'",
        "import { cn } from '@/lib/cn'",
        "import { quote } from '@reachflow/domain'",
        "import type { Tables } from '@reachflow/db'",
        "import { helper } from '@/features/campaigns/helper'",
        "import type { Lead } from '../../leads/types'",
        "export { badge } from '@/features/leads/badge'",
        "const wizard = () => import('@/features/scraping/wizard')",
      ].join('\n'),
    })
    expect(problems).toEqual([
      `web/src/features/campaigns/components/list.tsx:6 imports '../../leads/types' (web/src/features/leads/types): ${FEATURES} (move the shared piece to src/lib or src/components, or compose both in src/app)`,
      `web/src/features/campaigns/components/list.tsx:7 imports '@/features/leads/badge' (web/src/features/leads/badge): ${FEATURES} (move the shared piece to src/lib or src/components, or compose both in src/app)`,
      `web/src/features/campaigns/components/list.tsx:8 imports '@/features/scraping/wizard' (web/src/features/scraping/wizard): ${FEATURES} (move the shared piece to src/lib or src/components, or compose both in src/app)`,
    ])
  })

  it('the app imports features; a feature does not import the app', () => {
    const problems = problemsIn({
      'web/src/app/routes/dashboard.tsx': "import { Tab } from '@/features/campaigns/tab'",
      'web/src/main.tsx': "import { App } from './app/App'",
      'web/src/features/campaigns/tab.tsx': "import { routes } from '@/app/router'",
    })
    expect(problems).toEqual([
      "web/src/features/campaigns/tab.tsx:1 imports '@/app/router' (web/src/app/router): a feature does not import src/app (app → features → shared)",
    ])
  })

  it('shared code imports shared code, not a feature or the app', () => {
    const problems = problemsIn({
      'web/src/components/layouts/header.tsx': [
        "import { Button } from '@/components/ui/button'",
        "import { env } from '../../config/env'",
        "import { Bell } from '@/features/notifications/bell'",
      ].join('\n'),
      'web/src/lib/boot.ts': "export * from '../app/boot'",
    })
    expect(problems).toEqual([
      `web/src/components/layouts/header.tsx:3 imports '@/features/notifications/bell' (web/src/features/notifications/bell): ${SHARED} or src/app`,
      `web/src/lib/boot.ts:1 imports '../app/boot' (web/src/app/boot): ${SHARED} or src/app`,
    ])
  })

  it('the web app imports web/src, the domain, the schemas and the database types by name, nothing else', () => {
    const problems = problemsIn({
      'web/src/lib/ok.ts': [
        "import { quote } from '@reachflow/domain'",
        "import { campaignName } from '@reachflow/schemas'",
        "import type { Database } from '@reachflow/db'",
      ].join('\n'),
      'web/src/lib/session.ts': "import { open } from '../../../runner/src/sessions/open.ts'",
      'web/src/lib/types.ts':
        "import type { Database } from '../../../supabase/functions/_shared/database.ts'",
      // Not in web's tsconfig paths, so a package name here and a type error for tsc.
      'web/src/lib/ai.ts': "import { aiConfigFrom } from '@reachflow/ai'",
    })
    expect(problems).toEqual([
      `web/src/lib/session.ts:1 imports '../../../runner/src/sessions/open.ts' (runner/src/sessions/open.ts): ${WEB_ONLY}`,
      `web/src/lib/types.ts:1 imports '../../../supabase/functions/_shared/database.ts' (supabase/functions/_shared/database.ts): ${WEB_SERVER_CODE}`,
    ])
  })

  it('the web app never imports the service-role clients.ts, by path or through a wide alias', () => {
    const problems = problemsIn({
      'web/tsconfig.json': JSON.stringify({
        compilerOptions: { paths: { '@shared/*': ['../supabase/functions/_shared/*'] } },
      }),
      'web/src/lib/admin.ts': [
        "import { serviceClient } from '../../../supabase/functions/_shared/clients.ts'",
        "import { adminClient } from '@shared/clients.ts'",
      ].join('\n'),
    })
    expect(problems).toEqual([
      `web/src/lib/admin.ts:1 imports '../../../supabase/functions/_shared/clients.ts' (supabase/functions/_shared/clients.ts): ${WEB_SERVER_CODE}`,
      `web/src/lib/admin.ts:2 imports '@shared/clients.ts' (supabase/functions/_shared/clients.ts): ${WEB_SERVER_CODE}`,
    ])
  })
})

describe('runner, functions and stack', () => {
  it('the runner imports runner/src and the packages it shares by name only', () => {
    const problems = problemsIn({
      'runner/src/a.ts': [
        "import { b } from './b.ts'",
        "import { aiConfigFrom } from '@reachflow/ai'",
        "import type { Database } from '@reachflow/db'",
        "import { cn } from '../../web/src/lib/cn.ts'",
        "import { app } from '../../supabase/functions/api/app.ts'",
        "import { verify } from '../../supabase/functions/_shared/x-verify.ts'",
        "import { serviceClient } from '../../supabase/functions/_shared/clients.ts'",
      ].join('\n'),
    })
    expect(problems).toEqual([
      `runner/src/a.ts:4 imports '../../web/src/lib/cn.ts' (web/src/lib/cn.ts): ${RUNNER} (what its image holds)`,
      `runner/src/a.ts:5 imports '../../supabase/functions/api/app.ts' (supabase/functions/api/app.ts): ${RUNNER} (what its image holds)`,
      `runner/src/a.ts:6 imports '../../supabase/functions/_shared/x-verify.ts' (supabase/functions/_shared/x-verify.ts): ${RUNNER_BY_NAME}`,
      `runner/src/a.ts:7 imports '../../supabase/functions/_shared/clients.ts' (supabase/functions/_shared/clients.ts): ${RUNNER_BY_NAME}`,
    ])
  })

  it('tests, scripts and the stack itself import stack/; product code does not', () => {
    const problems = problemsIn({
      'runner/test/crypto.test.ts': "import { repoRoot } from '../../stack/src/config.ts'",
      'tests/x.test.ts': "import { stackConfig } from '../stack/src/config.ts'",
      'scripts/bench.ts': "import { stackConfig } from '../stack/src/config.ts'",
      'web/e2e/support.ts': "import { stackConfig } from '../../stack/src/config.ts'",
      'stack/src/demo.ts': "import { seal } from '../../runner/src/crypto.ts'",
      'runner/src/crypto.test.ts': "import { repoRoot } from '../../stack/src/config.ts'",
      'web/src/main.tsx': "import { ports } from '../../stack/src/config.ts'",
      'supabase/functions/_shared/env.ts': "import { ports } from '../../../stack/src/config.ts'",
    })
    expect(problems).toEqual([
      `runner/src/crypto.test.ts:1 imports '../../stack/src/config.ts' (stack/src/config.ts): ${STACK} (the local stack is never deployed)`,
      `supabase/functions/_shared/env.ts:1 imports '../../../stack/src/config.ts' (stack/src/config.ts): ${STACK} (the local stack is never deployed)`,
      `web/src/main.tsx:1 imports '../../stack/src/config.ts' (stack/src/config.ts): ${STACK} (the local stack is never deployed)`,
    ])
  })

  it('a function imports its own folder and _shared; _shared imports only _shared', () => {
    const problems = problemsIn({
      'supabase/functions/admin/app.ts': [
        "import { routes } from './routes.ts'",
        "import { HttpError } from '../_shared/errors.ts'",
        "import { createApiHandler } from '../api/app.ts'",
        "import { cn } from '../../../web/src/lib/cn.ts'",
      ].join('\n'),
      'supabase/functions/_shared/errors.ts': "import { deps } from '../api/deps.ts'",
    })
    expect(problems).toEqual([
      "supabase/functions/_shared/errors.ts:1 imports '../api/deps.ts' (supabase/functions/api/deps.ts): supabase/functions/_shared imports only _shared (every function, web and the runner import it)",
      `supabase/functions/admin/app.ts:3 imports '../api/app.ts' (supabase/functions/api/app.ts): ${FUNCTIONS} (each deploys alone; share through _shared)`,
      `supabase/functions/admin/app.ts:4 imports '../../../web/src/lib/cn.ts' (web/src/lib/cn.ts): ${FUNCTION_OUTSIDE} (what its deploy bundles)`,
    ])
  })
})

describe('the domain package', () => {
  const DOMAIN_ENTRY = 'supabase/functions/_shared/domain/index.ts'
  const ALONE =
    "@reachflow/domain imports only its own files (dependency-free, so Deno, Node and the browser run it as it is), and the database's types with `import type`"
  const BY_NAME = "import the domain package by its name, '@reachflow/domain', not by a path into it"
  const named = {
    'tsconfig.json': JSON.stringify({
      extends: './tsconfig.base.json',
      compilerOptions: { paths: { '@reachflow/domain': [`./${DOMAIN_ENTRY}`] } },
    }),
    'web/tsconfig.json': JSON.stringify({
      extends: '../tsconfig.base.json',
      compilerOptions: {
        paths: {
          '@/*': ['./src/*'],
          '@shared/*': ['../supabase/functions/_shared/*'],
          '@reachflow/domain': [`../${DOMAIN_ENTRY}`],
        },
      },
    }),
  }

  it('web, functions, _shared and the runner import it by its name, never by a path into it', () => {
    const problems = problemsIn({
      ...named,
      'web/src/features/billing/price.ts': [
        "import { quote } from '@reachflow/domain'",
        "import { formatMoney } from '@shared/domain/pricing'",
      ].join('\n'),
      'supabase/functions/api/checkout.ts': [
        "import { quote } from '@reachflow/domain'",
        "import { PricingError } from '../_shared/domain/pricing.ts'",
      ].join('\n'),
      'supabase/functions/_shared/ai.ts': "import { bannedPhraseIn } from '@reachflow/domain'",
      'runner/src/sending/compose.ts': [
        "import { spin } from '@reachflow/domain'",
        "import { pickWinner } from '../../../supabase/functions/_shared/domain/variant-stats.ts'",
      ].join('\n'),
    })
    expect(problems).toEqual([
      `runner/src/sending/compose.ts:2 imports '../../../supabase/functions/_shared/domain/variant-stats.ts' (supabase/functions/_shared/domain/variant-stats.ts): ${BY_NAME}`,
      `supabase/functions/api/checkout.ts:2 imports '../_shared/domain/pricing.ts' (supabase/functions/_shared/domain/pricing.ts): ${BY_NAME}`,
      `web/src/features/billing/price.ts:2 imports '@shared/domain/pricing' (supabase/functions/_shared/domain/pricing): ${BY_NAME}`,
    ])
  })

  it('imports only its own files and no package; its tests may use node:assert', () => {
    const problems = problemsIn({
      ...named,
      'supabase/functions/_shared/domain/index.ts': "export * from './pricing.ts'",
      'supabase/functions/_shared/domain/pricing.ts': [
        "import { csvField } from './csv.ts'",
        "import { HttpError } from '../errors.ts'",
        "import { z } from 'npm:zod@4.6.7'",
        "import { createHash } from 'node:crypto'",
        "import { cn } from '../../../../web/src/lib/cn.ts'",
        "import type { Database } from '@shared/database'",
      ].join('\n'),
      'supabase/functions/_shared/domain/pricing.test.ts': [
        "import assert from 'node:assert/strict'",
        "import { quote } from './pricing.ts'",
      ].join('\n'),
    })
    expect(problems).toEqual([
      `supabase/functions/_shared/domain/pricing.ts:2 imports '../errors.ts' (supabase/functions/_shared/errors.ts): ${ALONE}`,
      `supabase/functions/_shared/domain/pricing.ts:5 imports '../../../../web/src/lib/cn.ts' (web/src/lib/cn.ts): ${ALONE}`,
      `supabase/functions/_shared/domain/pricing.ts:3 imports 'npm:zod@4.6.7': ${ALONE}; 'npm:zod@4.6.7' is not one of its files`,
      `supabase/functions/_shared/domain/pricing.ts:4 imports 'node:crypto': ${ALONE}; 'node:crypto' is not one of its files`,
      `supabase/functions/_shared/domain/pricing.ts:6 imports '@shared/database': ${ALONE}; '@shared/database' is not one of its files`,
    ])
  })

  it('may import the database types with `import type`, nothing else of _shared and no value', () => {
    const problems = problemsIn({
      'supabase/functions/_shared/domain/api-endpoints.ts': [
        "import type { Tables } from '../database.ts'",
        "export type { Json } from '../database.ts'",
        "import { type Tables as Rows } from '../database.ts'",
        "import { Database } from '../database.ts'",
        "import type { HttpError } from '../errors.ts'",
        "import '../database.ts'",
      ].join('\n'),
    })
    expect(problems).toEqual([
      `supabase/functions/_shared/domain/api-endpoints.ts:4 imports '../database.ts' (supabase/functions/_shared/database.ts): ${ALONE}`,
      `supabase/functions/_shared/domain/api-endpoints.ts:5 imports '../errors.ts' (supabase/functions/_shared/errors.ts): ${ALONE}`,
      `supabase/functions/_shared/domain/api-endpoints.ts:6 imports '../database.ts' (supabase/functions/_shared/database.ts): ${ALONE}`,
    ])
  })
})

describe('the schemas package', () => {
  const ALONE =
    "@reachflow/schemas imports only its own files, @reachflow/domain and 'zod' (web bundles it: no server code)"
  const BY_NAME = "import the schemas package by its name, '@reachflow/schemas', not by a path into it"

  it('imports its own files, the domain by name and zod; no other package or _shared file', () => {
    const problems = problemsIn({
      'supabase/functions/_shared/schemas/index.ts': "export * from './campaign.ts'",
      'supabase/functions/_shared/schemas/campaign.ts': [
        "import { DM_LIMITS } from '@reachflow/domain'",
        "import { z } from 'zod'",
        "import { text } from './text.ts'",
        "import { serviceClient } from '../clients.ts'",
        "import { z as pinned } from 'npm:zod@4.6.7'",
        "import { createHash } from 'node:crypto'",
      ].join('\n'),
      'supabase/functions/_shared/schemas/campaign.test.ts': "import assert from 'node:assert/strict'",
    })
    expect(problems).toEqual([
      `supabase/functions/_shared/schemas/campaign.ts:4 imports '../clients.ts' (supabase/functions/_shared/clients.ts): ${ALONE}`,
      `supabase/functions/_shared/schemas/campaign.ts:5 imports 'npm:zod@4.6.7': ${ALONE}; 'npm:zod@4.6.7' is not one of them`,
      `supabase/functions/_shared/schemas/campaign.ts:6 imports 'node:crypto': ${ALONE}; 'node:crypto' is not one of them`,
    ])
  })

  it('web and the functions import it by its name; the runner not at all', () => {
    const problems = problemsIn({
      'web/src/features/campaigns/form.ts': [
        "import { campaignName } from '@reachflow/schemas'",
        "import { messageText } from '../../../../supabase/functions/_shared/schemas/campaign.ts'",
      ].join('\n'),
      'supabase/functions/api/input.ts': [
        "import { campaignName } from '@reachflow/schemas'",
        "import { messageText } from '../_shared/schemas/campaign.ts'",
      ].join('\n'),
      'supabase/functions/_shared/clients.ts': "import { campaignName } from '@reachflow/schemas'",
      'runner/src/compose.ts':
        "import { messageText } from '../../supabase/functions/_shared/schemas/index.ts'",
    })
    expect(problems).toEqual([
      `runner/src/compose.ts:1 imports '../../supabase/functions/_shared/schemas/index.ts' (supabase/functions/_shared/schemas/index.ts): ${BY_NAME}`,
      `supabase/functions/api/input.ts:2 imports '../_shared/schemas/campaign.ts' (supabase/functions/_shared/schemas/campaign.ts): ${BY_NAME}`,
      `web/src/features/campaigns/form.ts:2 imports '../../../../supabase/functions/_shared/schemas/campaign.ts' (supabase/functions/_shared/schemas/campaign.ts): ${BY_NAME}`,
    ])
  })
})

describe('reading imports', () => {
  it('ignores import-like text in strings, templates and comments, and computed specifiers', () => {
    const problems = problemsIn({
      'runner/src/deno-script.ts': [
        "// import { x } from '../../web/src/lib/x.ts'",
        "const script = `import { y } from '../../web/src/lib/y.ts'`",
        'const text = "import z from \'../../stack/src/z.ts\'"',
        "const quote = /'/g",
        `const load = (name: string) => import(\`../../web/src/\${name}\`)`,
        'export { script, text, quote, load }',
      ].join('\n'),
    })
    expect(problems).toEqual([])
  })

  it('follows a tsconfig that takes its paths from the config it extends', () => {
    const problems = problemsIn({
      'web/tsconfig.json': '{"extends":"./tsconfig.paths.json"}',
      'web/tsconfig.paths.json': '{"compilerOptions":{"paths":{"~/*":["./src/*"]}}}',
      'web/src/lib/bell.ts': "import { Bell } from '~/features/notifications/bell'",
    })
    expect(problems).toEqual([
      `web/src/lib/bell.ts:1 imports '~/features/notifications/bell' (web/src/features/notifications/bell): ${SHARED} or src/app`,
    ])
  })

  it('names a file it cannot parse instead of passing it', () => {
    const problems = problemsIn({ 'web/src/lib/broken.ts': 'import { from "./x"' })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^web\/src\/lib\/broken\.ts: could not be parsed \(.+\)$/)
  })
})

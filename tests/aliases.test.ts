// The alias maps written from scripts/aliases/list.ts: generated into an empty tree they agree with
// the list, and a map edited by hand (or a function added without its deno.json) is named by lint.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { checkAliases, writeAliases } from '../scripts/aliases/generate.ts'
import { DENO_NPM_IMPORTS, SHARED_PACKAGES } from '../scripts/aliases/list.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'aliases-'))
  roots.push(root)
  for (const dir of ['web', 'supabase/functions/api', 'supabase/functions/_shared'])
    mkdirSync(join(root, dir), { recursive: true })
  writeFileSync(join(root, 'tsconfig.json'), '{"extends":"./tsconfig.base.json"}')
  writeFileSync(join(root, 'web/tsconfig.json'), '{"compilerOptions":{"jsx":"react-jsx"}}')
  writeFileSync(join(root, 'deno.json'), '{"nodeModulesDir":"manual"}')
  writeFileSync(join(root, 'supabase/functions/api/deno.json'), '{}')
  return root
}

const read = (root: string, file: string) => JSON.parse(readFileSync(join(root, file), 'utf8'))

describe('alias maps', () => {
  it('are written from the one list, relative to each config, keeping what the list does not own', () => {
    const root = tree()
    writeAliases(root)
    expect(checkAliases(root)).toEqual([])
    expect(Object.keys(read(root, 'tsconfig.json').compilerOptions.paths)).toEqual(
      SHARED_PACKAGES.map((p) => p.name),
    )
    const web = read(root, 'web/tsconfig.json').compilerOptions
    expect(web.jsx).toBe('react-jsx')
    expect(web.paths['@reachflow/db']).toEqual(['../supabase/functions/_shared/database.ts'])
    expect(web.paths['@reachflow/ai']).toBeUndefined()
    expect(read(root, 'supabase/functions/api/deno.json').imports).toEqual({
      '@reachflow/domain': '../_shared/domain/index.ts',
      '@reachflow/schemas': '../_shared/schemas/index.ts',
      zod: 'npm:zod@4.6.7',
    })
    expect(web.paths.zod).toBeUndefined()
    expect(read(root, 'deno.json').nodeModulesDir).toBe('manual')
  })

  it("pins each bare npm name for Deno at package.json's version, the one Node and Vite load", () => {
    const root = fileURLToPath(new URL('..', import.meta.url))
    const { dependencies } = read(root, 'package.json') as { dependencies: Record<string, string> }
    for (const [name, specifier] of Object.entries(DENO_NPM_IMPORTS))
      expect(specifier).toBe(`npm:${name}@${dependencies[name]}`)
  })

  it('names a map edited by hand and a function without its deno.json', () => {
    const root = tree()
    writeAliases(root)
    writeFileSync(
      join(root, 'web/tsconfig.json'),
      JSON.stringify({ compilerOptions: { paths: { '@shared/*': ['../supabase/functions/_shared/*'] } } }),
    )
    mkdirSync(join(root, 'supabase/functions/admin'))
    expect(checkAliases(root)).toEqual([
      'web/tsconfig.json: compilerOptions.paths differs from scripts/aliases/list.ts (run: npx tsx scripts/aliases/generate.ts)',
      'supabase/functions/admin/deno.json: missing (it must hold the aliases of scripts/aliases/list.ts)',
    ])
  })
})

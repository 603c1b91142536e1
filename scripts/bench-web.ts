// `npm run bench:web`: builds the web app and reports what each kind of visit downloads (gzip),
// from Vite's manifest: the landing route for a signed-in visitor (entry + its static imports +
// the Supabase client, judged against the budget), for a signed-out one, and every lazy route.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { lighthouse } from './bench/web-lighthouse.ts'

interface ManifestChunk {
  file: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  src?: string
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

const webDir = join(import.meta.dirname, '..', 'web')
const dist = join(webDir, 'dist')
const LANDING_BUDGET_KB = 170

execFileSync(
  join(webDir, '..', 'node_modules', '.bin', 'vite'),
  ['build', '--manifest', '--logLevel', 'warn'],
  {
    cwd: webDir,
    stdio: 'inherit',
    env: {
      ...process.env,
      VITE_SUPABASE_URL: process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321',
      VITE_SUPABASE_ANON_KEY: process.env.VITE_SUPABASE_ANON_KEY ?? 'bench',
    },
  },
)

const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>
const gzipKb = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024

/** A chunk plus everything it imports statically, each file once. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key]
  if (!chunk || seen.has(chunk.file)) return seen
  seen.add(chunk.file)
  for (const dep of chunk.imports ?? []) closure(dep, seen)
  return seen
}

const total = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + gzipKb(f), 0)
const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry)
if (!entryKey) throw new Error('No entry chunk in the manifest')
const landing = closure(entryKey)
const css = manifest[entryKey]?.css ?? []
const supabaseKey = Object.keys(manifest).find(
  (k) => k.endsWith('src/lib/supabase.ts') || /^_supabase-/.test(k),
)
const signedInExtra = supabaseKey ? [...closure(supabaseKey)].filter((f) => !landing.has(f)) : []

const rows: Array<[string, number]> = [
  ['Landing, signed in: JS (the budget)', total(landing) + total(signedInExtra)],
  ['Landing, signed out: JS', total(landing)],
  ['Landing: CSS', total(css)],
  ['Signed in adds (Supabase client)', total(signedInExtra)],
]
for (const [key, chunk] of Object.entries(manifest)) {
  if (!chunk.isDynamicEntry || !key.includes('app/routes/')) continue
  const extra = [...closure(key)].filter((f) => !landing.has(f))
  rows.push([
    `Route ${key.replace(/^.*app\/routes\//, '').replace(/\.tsx$/, '')} (on top of landing)`,
    total(extra),
  ])
}

console.log('\nWeb bundle (gzip, KB):')
for (const [name, kb] of rows) console.log(`  ${name.padEnd(48)} ${kb.toFixed(1).padStart(7)}`)
const landingKb = rows[0]?.[1] ?? 0
console.log(`\nLanding route JS, signed in: ${landingKb.toFixed(1)} KB of a ${LANDING_BUDGET_KB} KB budget.`)
if (landingKb > LANDING_BUDGET_KB) process.exitCode = 1

// Lighthouse bars: performance and accessibility at least 95 on mobile.
const LIGHTHOUSE_MIN = 95
const previewPort = 4100 + Number(process.env.STACK_PORT_BASE ?? 0)
const [load1] = (await import('node:os')).loadavg()
const scores = await lighthouse(webDir, previewPort, ['/', '/login'])
console.log(`\nLighthouse (mobile), load average ${load1?.toFixed(1)} at the start:`)
for (const score of scores) {
  const metrics = Object.entries(score.metrics)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ')
  console.log(
    `  ${score.path.padEnd(8)} CPU ${score.cpuSlowdown}x (benchmark index ${score.benchmarkIndex}): performance ${score.performance}, accessibility ${score.accessibility}  (${metrics})`,
  )
  for (const audit of score.failing) console.log(`      below 90: ${audit}`)
  // Judged on Lighthouse's default settings; the calibrated run is printed for comparison.
  const judged = score.cpuSlowdown === 4
  if (judged && (score.performance < LIGHTHOUSE_MIN || score.accessibility < LIGHTHOUSE_MIN))
    process.exitCode = 1
}

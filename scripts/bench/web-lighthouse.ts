// Lighthouse (mobile, its default simulated throttling) on the built web app, served by
// `vite preview` on this machine and driven through Debian's Chromium with no network beyond it.
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface LighthouseScore {
  path: string
  /** Lighthouse's measure of this machine's speed at the time (a fast desktop is ~1,500+). */
  benchmarkIndex: number
  cpuSlowdown: number
  performance: number
  accessibility: number
  /** Audits that lost points, for the person fixing them. */
  failing: string[]
  metrics: Record<string, string>
}

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

interface LighthouseJson {
  environment: { benchmarkIndex: number }
  categories: Record<string, { score: number; auditRefs: Array<{ id: string; weight: number }> }>
  audits: Record<
    string,
    {
      score: number | null
      title: string
      displayValue?: string
      details?: { items?: Array<{ node?: { snippet?: string } }> }
    }
  >
}

async function waitForServer(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`vite preview did not answer at ${url}`)
}

async function audit(baseUrl: string, path: string, cpuSlowdown: number): Promise<LighthouseScore> {
  const profile = mkdtempSync(join(tmpdir(), 'lighthouse-profile-'))
  try {
    const { stdout } = await run(
      join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'lighthouse'),
      [
        `${baseUrl}${path}`,
        '--output=json',
        '--quiet',
        '--only-categories=performance,accessibility',
        `--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`,
        `--chrome-flags=${[...CHROME_FLAGS, `--user-data-dir=${profile}`].join(' ')}`,
      ],
      { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
    )
    const report = JSON.parse(stdout) as LighthouseJson
    const failing = Object.values(report.categories)
      .flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0))
      .map((ref) => report.audits[ref.id])
      .filter((a): a is NonNullable<typeof a> => a !== undefined && a.score !== null && a.score < 0.9)
      .map((a) => {
        const nodes = (a.details?.items ?? []).flatMap((item) => item.node?.snippet ?? []).slice(0, 3)
        return `${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}${nodes.length ? ` ${nodes.join(' ')}` : ''}`
      })
    const metric = (id: string) => report.audits[id]?.displayValue ?? '?'
    return {
      path,
      benchmarkIndex: Math.round(report.environment.benchmarkIndex),
      cpuSlowdown,
      performance: Math.round((report.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((report.categories.accessibility?.score ?? 0) * 100),
      failing,
      metrics: {
        FCP: metric('first-contentful-paint'),
        LCP: metric('largest-contentful-paint'),
        TBT: metric('total-blocking-time'),
        CLS: metric('cumulative-layout-shift'),
        SI: metric('speed-index'),
      },
    }
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}

/**
 * Lighthouse's default 4x CPU slowdown assumes a fast desktop host (benchmark index ~1,500). On a
 * slower or busy host the same 4x emulates a much slower phone, so this scales it to the measured
 * index, as Lighthouse's throttling guide advises; never below 1.
 */
export const calibratedSlowdown = (benchmarkIndex: number) =>
  Math.max(1, Math.round(((4 * benchmarkIndex) / 1500) * 10) / 10)

/**
 * Serves `webDir`'s build on `port` and audits each path in turn (one Chromium at a time), with
 * Lighthouse's default 4x CPU slowdown and again calibrated to this machine's benchmark index.
 */
export async function lighthouse(webDir: string, port: number, paths: string[]): Promise<LighthouseScore[]> {
  const baseUrl = `http://127.0.0.1:${port}`
  const server = spawn(
    join(webDir, '..', 'node_modules', '.bin', 'vite'),
    ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: webDir, stdio: 'ignore' },
  )
  try {
    await waitForServer(baseUrl)
    const scores: LighthouseScore[] = []
    for (const path of paths) {
      const standard = await audit(baseUrl, path, 4)
      scores.push(standard, await audit(baseUrl, path, calibratedSlowdown(standard.benchmarkIndex)))
    }
    return scores
  } finally {
    server.kill('SIGTERM')
  }
}

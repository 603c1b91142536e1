// `npx tsx scripts/measure-analytics.ts` (with STACK_PORT_BASE of your dev stack): how long the
// Analytics tab of a DM campaign's and a scraping campaign's details takes, as the demo customer
// sees it. Builds the web app, serves the build with `vite preview` against the running dev stack
// (`npm run stack:up`), and over 5 cold page loads each times, from the click on Analytics:
//   - first label: something that says what is coming (a labelled loading state, or the results);
//   - results: the chart drawn (and, for a DM campaign, the message variants listed).
// The details dialog opens first and the click comes as soon as its Overview shows (the hardest
// case for a prefetch). A measurement for docs/benchmarks.md, not a test: it asserts nothing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { repoRoot } from '../stack/src/config.ts'

const RUNS = 5
const status = JSON.parse(readFileSync(join(repoRoot, '.stack', 'dev', 'status.json'), 'utf8')) as {
  api_url: string
  anon_key: string
}
const previewPort = 54_398 + Number(process.env.STACK_PORT_BASE ?? 0)
const webUrl = `http://127.0.0.1:${previewPort}`

function buildAndServe(): ChildProcess {
  const vite = join(repoRoot, 'node_modules', '.bin', 'vite')
  const outDir = join(repoRoot, '.stack', 'measure-web')
  const env = { ...process.env, VITE_SUPABASE_URL: status.api_url, VITE_SUPABASE_ANON_KEY: status.anon_key }
  execFileSync(vite, ['build', '--logLevel', 'warn', '--emptyOutDir', '--outDir', outDir], {
    cwd: join(repoRoot, 'web'),
    stdio: 'inherit',
    env,
  })
  return spawn(
    vite,
    ['preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(previewPort), '--strictPort'],
    { cwd: join(repoRoot, 'web'), env, stdio: 'ignore' },
  )
}

async function waitForUrl(url: string) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} did not answer`)
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

/** From the click on Analytics: [ms to a label or the results, ms to the results]. */
async function timeAnalytics(page: Page, kind: 'campaign' | 'scraping'): Promise<[number, number]> {
  await page.goto(`${webUrl}/dashboard${kind === 'scraping' ? '?tab=lead-scraping' : ''}`)
  const card = page.getByTestId(kind === 'campaign' ? 'campaign-card' : 'scraping-card').first()
  await card.waitFor()
  await card.click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('tab', { name: 'Analytics' }).waitFor()
  const started = Date.now()
  await dialog.getByRole('tab', { name: 'Analytics' }).click()
  const chart = dialog.getByTestId(kind === 'campaign' ? 'chart-per-day' : 'chart-per-hour').locator('svg')
  const label = dialog.getByText(/^Loading analytics/).or(chart)
  await label.first().waitFor()
  const labelled = Date.now() - started
  await chart.first().waitFor()
  if (kind === 'campaign') await dialog.getByTestId('campaign-variants').waitFor()
  return [labelled, Date.now() - started]
}

async function main() {
  const preview = buildAndServe()
  try {
    await waitForUrl(webUrl)
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
    for (const kind of ['campaign', 'scraping'] as const) {
      const labels: number[] = []
      const results: number[] = []
      for (let run = 0; run < RUNS; run++) {
        // a fresh context each time: nothing cached, as on a customer's first visit
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
        const page = await context.newPage()
        await page.goto(`${webUrl}/login`)
        await page.getByLabel('Email address').fill('demo@reachflow.test')
        await page.getByLabel('Password').fill('demo-password')
        await page.getByRole('button', { name: 'Sign In', exact: true }).click()
        await page.waitForURL(/\/dashboard/)
        const [labelled, shown] = await timeAnalytics(page, kind)
        labels.push(labelled)
        results.push(shown)
        await context.close()
      }
      console.log(
        `${kind} analytics: label ${median(labels)} ms, results ${median(results)} ms (median of ${RUNS}; runs ${results.join(', ')})`,
      )
    }
    await browser.close()
    console.log(
      `machine: ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
  } finally {
    preview.kill()
  }
}

await main()

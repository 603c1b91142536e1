// What proxied accounts cost in Chromium: for each N (BENCH_PROXIES, default 1,10,50), one pool
// opens N account contexts, each behind its own local proxy with its own login, loads a page
// through it, then parks it (closes the page, as a warm session waits between jobs). Reported once
// the process count settles: browsers, Chromium processes and their PSS. Every proxy must have seen
// only its own login, or the run fails. No stack needed: `npm run bench:proxies`.

import { readFileSync } from 'node:fs'
import { navigate } from '../runner/src/browser/navigate.ts'
import { BrowserPool } from '../runner/src/browser/pool.ts'
import { processTree } from '../runner/src/process-stats.ts'
import { RecordingProxy, startSite } from '../runner/test/helpers/recording-proxy.ts'

const COUNTS = (process.env.BENCH_PROXIES ?? '1,10,50').split(',').map(Number)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function pssMb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

/** Chromium's processes: everything under this process but itself. */
function chromium(): { processes: number; pssMb: number } {
  const tree = processTree(process.pid).filter((p) => p.pid !== process.pid)
  return { processes: tree.length, pssMb: tree.reduce((sum, p) => sum + pssMb(p.pid), 0) }
}

/** Renderers of closed pages exit a moment later (later on a busy machine): wait for a steady count. */
async function settled(): Promise<{ processes: number; pssMb: number }> {
  let last = -1
  for (let stable = 0, tries = 0; stable < 3 && tries < 60; tries++) {
    await sleep(1_000)
    const now = chromium().processes
    stable = now === last ? stable + 1 : 0
    last = now
  }
  return chromium()
}

async function run(count: number): Promise<string> {
  const site = await startSite()
  const proxies = await Promise.all(
    Array.from({ length: count }, (_, i) => RecordingProxy.start(`account${i}:secret${i}`)),
  )
  const pool = new BrowserPool()
  const started = Date.now()
  try {
    const contexts = []
    for (const [i, proxy] of proxies.entries()) {
      const context = await pool.newContext(proxy.urlFor(`account${i}:secret${i}`))
      const page = await context.newPage()
      await navigate(page, `${site.url}/account${i}/home`, 60_000)
      await page.close()
      contexts.push(context)
    }
    const openSeconds = (Date.now() - started) / 1000
    const usage = await settled()
    const { browsers } = await pool.stats()
    for (const [i, proxy] of proxies.entries())
      if (
        !proxy.seen.some((r) => r.url.includes(`/account${i}/`)) ||
        proxy.seen.some(
          (r) =>
            r.login !== `account${i}:secret${i}` || /\/account\d+\//.test(r.url.replace(`/account${i}/`, '')),
        )
      )
        throw new Error(`proxy ${i} saw another account's traffic or none of its own`)
    await Promise.all(contexts.map((c) => c.close()))
    return `| ${count} | ${browsers} | ${usage.processes} | ${Math.round(usage.pssMb).toLocaleString('en')} MB | ${(
      usage.pssMb / count
    ).toFixed(1)} MB | ${openSeconds.toFixed(1)} s |`
  } finally {
    await pool.close()
    await Promise.all(proxies.map((p) => p.close()))
    await site.close()
  }
}

// chromium-bidi leaves a request's continue unawaited when its page closes at that moment (the runner
// logs these too; see runner/src/main.ts): counted, not fatal
let targetClosed = 0
process.on('unhandledRejection', (reason) => {
  if (reason instanceof Error && reason.name === 'TargetCloseError') targetClosed++
  else throw reason
})

const rows: string[] = []
for (const count of COUNTS) {
  rows.push(await run(count))
  console.log(rows.at(-1))
}
console.log(
  [
    '| proxied accounts | browsers | Chromium processes | Chromium PSS | PSS per account | open all |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n'),
)
if (targetClosed) console.log(`(${targetClosed} unawaited protocol calls of closed pages, ignored)`)

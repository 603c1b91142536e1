// `npm run bench:dm-cpu`: where the CPU of one X DM goes, without the rest of the runner. One
// BrowserPool (the runner's own flags), BENCH_ACCOUNTS warm X sessions on the X sandbox at
// X_BASE_URL, each sending BENCH_DMS DMs one after another with realistic typing, the accounts in
// parallel; then the CPU of this process (puppeteer and the BiDi mapper) and of every Chromium
// process by kind, exited renderers included, per DM. Session opens are outside the measurement
// (bench:runner counts them). The figures are only comparable back to back on one machine.
// BENCH_TYPING scales the typing delays (1 = realistic, 0 = instant: the difference is what an
// open page costs per second), BENCH_MODE=inbox|page measures an inbox read or a bare page open
// instead, BENCH_COUNT=1 adds the protocol messages per DM. Start the sandbox alone with
// `STACK_PORT_BASE=<base> tsx stack/sandbox/x/server.ts` and pass its URL as X_BASE_URL.
import { loadavg } from 'node:os'
import { BrowserPool } from '../runner/src/browser/pool.ts'
import { parseXCookies } from '../runner/src/platforms/x/cookies.ts'
import { openXSession, type XSession } from '../runner/src/platforms/x/session.ts'
import { openProfiles, SandboxAdmin, type XSandboxAccount } from '../runner/test/helpers/sandbox.ts'
import { CpuTracker } from './bench/cpu-by-kind.ts'

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 4)
const DMS = Number(process.env.BENCH_DMS ?? 5)
const base = (process.env.X_BASE_URL ?? '').replace(/\/$/, '')
if (!base) throw new Error('Set X_BASE_URL to a running X sandbox.')
const UNLIMITED = { replyShare: 0, maxSendsPerMinute: 10_000, maxSameText: 100_000, dailyDmLimit: 100_000 }
/** BENCH_COUNT=1: protocol traffic per DM, BiDi commands and events and the CDP messages under them. */
const counts = new Map<string, number>()
type Method = (this: unknown, ...args: unknown[]) => unknown
type Patchable = { prototype: Record<string, Method> }

/** Wraps a prototype method so each call is counted under the key it names (none: not counted). */
function count(target: Patchable, name: string, key: (args: unknown[]) => string | undefined): void {
  const original = target.prototype[name] as Method
  target.prototype[name] = function (this: unknown, ...args: unknown[]) {
    const k = key(args)
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1)
    return original.apply(this, args)
  }
}

async function countProtocol(): Promise<void> {
  const { BidiConnection } = (await import('puppeteer-core/internal/bidi/Connection.js')) as unknown as {
    BidiConnection: Patchable
  }
  const { Connection } = (await import('puppeteer-core/internal/cdp/Connection.js')) as unknown as {
    Connection: Patchable
  }
  const methodOf = (message: unknown) => /"method":"([^"]+)"/.exec(String(message))?.[1]
  count(BidiConnection, 'send', ([method]) => `bidi> ${String(method)}`)
  count(BidiConnection, 'onMessage', ([message]) =>
    String(message).includes('"type":"event"') ? `bidi< ${methodOf(message)}` : undefined,
  )
  count(Connection, '_rawSend', ([, method]) => `cdp> ${String(method)}`)
  count(Connection, 'onMessage', ([message]) => `cdp< ${methodOf(message) ?? '(answer)'}`)
}

const TEXT = 'Hi {name}, loved your last post about the shop. Would you be open to a quick chat this week?'

/**
 * BENCH_MODE: `dm` (default) one DM; `inbox` one inbox read (X Chat's inbox, no requests page);
 * `page` a page opened and closed with nothing loaded in it (what a job pays before any site).
 */
async function job(session: XSession, lead: { id: string; name: string }): Promise<string> {
  const mode = process.env.BENCH_MODE ?? 'dm'
  if (mode === 'inbox') {
    await session.readInbox({ includeRequests: false })
    await session.park()
    return 'sent'
  }
  if (mode === 'page') {
    await session.run('blank page', 30_000, (page) => page.evaluate('1'))
    await session.park()
    return 'sent'
  }
  return (await session.sendDm({ userId: lead.id }, TEXT.replace('{name}', lead.name))).status
}

async function main(): Promise<void> {
  if (process.env.BENCH_COUNT === '1') await countProtocol()
  const admin = new SandboxAdmin(base)
  const pool = new BrowserPool()
  const leads = await openProfiles(admin, ACCOUNTS * DMS, 300 + Math.floor(Math.random() * 3000))
  const sessions: XSession[] = []
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = await admin.createAccount<XSandboxAccount>({ passcode: null, behaviour: UNLIMITED })
    const cookies = parseXCookies(account.cookies)
    if (!cookies.ok) throw new Error(cookies.error)
    const opened = await openXSession(cookies.value, {
      pool,
      baseUrl: base,
      typing: { delayFactor: Number(process.env.BENCH_TYPING ?? 1) },
    })
    if (opened.status !== 'ok') throw new Error(`open failed: ${JSON.stringify(opened)}`)
    sessions.push(opened.session)
  }
  counts.clear()
  const tracker = new CpuTracker(process.pid)
  const self0 = process.cpuUsage()
  const before = tracker.sample()
  // the sampling itself reads /proc in this process: its CPU is taken off this process's share
  let sampling = 0
  const timer = setInterval(() => {
    const at = process.cpuUsage()
    tracker.sample()
    const used = process.cpuUsage(at)
    sampling += (used.user + used.system) / 1e6
  }, 1_000)
  const loads: number[] = []
  const loadTimer = setInterval(() => loads.push(loadavg()[0] ?? 0), 5_000)
  const started = Date.now()
  const results: string[] = []
  await Promise.all(
    sessions.map(async (session, i) => {
      for (let n = 0; n < DMS; n++) {
        const lead = leads[i * DMS + n]
        if (!lead) throw new Error('not enough leads')
        results.push(await job(session, lead))
      }
    }),
  )
  const seconds = (Date.now() - started) / 1000
  clearInterval(timer)
  clearInterval(loadTimer)
  const after = tracker.sample()
  const self = process.cpuUsage(self0)
  const byKind = new Map<string, number>()
  for (const [pid, cpu] of after) {
    const kind = pid === process.pid ? 'runner (Node, with the BiDi mapper)' : tracker.kindOf(pid)
    const own = pid === process.pid ? sampling : 0
    byKind.set(kind, (byKind.get(kind) ?? 0) + cpu - (before.get(pid) ?? 0) - own)
  }
  const sent = results.filter((s) => s === 'sent').length
  const total = [...byKind.values()].reduce((a, b) => a + b, 0)
  const kinds = [...byKind]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, cpu]) => `${kind} ${(cpu / Math.max(1, sent)).toFixed(3)}`)
    .join(', ')
  console.log(
    JSON.stringify({
      dms: results.length,
      sent,
      seconds: Math.round(seconds),
      cpuPerDm: +(total / Math.max(1, sent)).toFixed(3),
      nodeSelfPerDm: +((self.user + self.system) / 1e6 / Math.max(1, sent)).toFixed(3),
      samplingPerDm: +(sampling / Math.max(1, sent)).toFixed(3),
      load: loads.length ? +(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1) : null,
    }),
  )
  console.log(`per DM by kind (CPU-s): ${kinds}`)
  if (counts.size)
    console.log(
      [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 40)
        .map(([k, n]) => `${(n / Math.max(1, sent)).toFixed(1)} ${k}`)
        .join('\n'),
    )
  await Promise.all(sessions.map((s) => s.close()))
  await pool.close()
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)

// `npm run bench:cpu -- [command …]`: runs a command (`npm test` when none is given) and says where
// the machine's CPU went while it ran, by kind of process: Chromium (Playwright's or the runners',
// by process type), PostgreSQL, vitest, deno, the gateway, the sandboxes, … It reads /proc every
// 2 s and adds each process's CPU time since the last read; a process that ends between two reads
// loses at most those 2 s, so the total is a little below what the machine spent.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const SAMPLE_MS = 2000
/** Clock ticks per second for /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100

interface Proc {
  ppid: number
  start: number
  ticks: number
  cmdline: string
}

/**
 * The kind of a process from its command line and, for Chromium, its browser's (the process that
 * launched the others): who started the browser (Playwright's profile directory says it), then the
 * Chromium process type (`browser` for the main one).
 */
export function processKind(cmdline: string, browserCmdline?: string): string {
  if (/chrom(e|ium)/.test(cmdline)) {
    if (cmdline.includes('chrome_crashpad_handler')) return 'chromium crashpad'
    const owner = (browserCmdline ?? cmdline).includes('playwright') ? 'Playwright' : 'runners'
    const type = /--type=(\S+)/.exec(cmdline)?.[1] ?? 'browser'
    return `chromium (${owner}) ${type}`
  }
  if (cmdline.startsWith('postgres') || cmdline.includes('/bin/postgres')) return 'postgres'
  if (cmdline.includes('deno')) return 'deno'
  if (cmdline.includes('for (;;)')) return 'busy core (test:stress)'
  if (cmdline.includes('vitest')) return 'vitest'
  if (cmdline.includes('playwright')) return 'playwright test runner'
  for (const [needle, kind] of [
    ['gateway/src', 'gateway'],
    ['/sandbox/', 'sandboxes'],
    ['runner/src', 'runner processes'],
    ['/.bin/vite', 'vite'],
    ['esbuild', 'esbuild'],
    ['cli.ts supervise', 'stack supervisors'],
  ] as const) {
    if (cmdline.includes(needle)) return kind
  }
  return cmdline === '' ? 'kernel threads' : `other (${cmdline.split(' ')[0]?.split('/').at(-1)})`
}

function readProc(pid: number, known: Map<number, Proc>): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const start = Number(fields[19])
    const ticks = Number(fields[11]) + Number(fields[12])
    const before = known.get(pid)
    const cmdline =
      before && before.start === start
        ? before.cmdline
        : readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
    return { ppid: Number(fields[1]), start, ticks, cmdline }
  } catch {
    return undefined // ended while being read
  }
}

/** The Chromium browser process a Chromium process descends from (itself for the browser). */
function browserOf(pid: number, procs: Map<number, Proc>): Proc | undefined {
  let current = procs.get(pid)
  for (let hops = 0; current && hops < 10; hops++) {
    const parent = procs.get(current.ppid)
    if (!parent || !/chrom(e|ium)/.test(parent.cmdline)) return current
    current = parent
  }
  return current
}

function sampler(): { sample: () => void; totals: Map<string, number> } {
  const totals = new Map<string, number>()
  let procs = new Map<number, Proc>()
  let first = true
  const sample = () => {
    const next = new Map<number, Proc>()
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry)
      if (!Number.isInteger(pid)) continue
      const proc = readProc(pid, procs)
      if (proc) next.set(pid, proc)
    }
    for (const [pid, proc] of next) {
      const before = procs.get(pid)
      // a process started since the last read counts from its start; on the first read, nothing
      const spent = before && before.start === proc.start ? proc.ticks - before.ticks : first ? 0 : proc.ticks
      if (spent <= 0) continue
      const kind = processKind(proc.cmdline, browserOf(pid, next)?.cmdline)
      totals.set(kind, (totals.get(kind) ?? 0) + spent)
    }
    procs = next
    first = false
  }
  return { sample, totals }
}

function report(totals: Map<string, number>, seconds: number): string {
  const all = [...totals.values()].reduce((sum, ticks) => sum + ticks, 0)
  const rows = [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .filter(([, ticks]) => ticks / TICKS_PER_SECOND >= 1)
    .map(
      ([kind, ticks]) =>
        `  ${(ticks / TICKS_PER_SECOND).toFixed(0).padStart(7)} s  ${((100 * ticks) / all).toFixed(1).padStart(5)} %  ${kind}`,
    )
  return [
    `CPU by kind of process over ${(seconds / 60).toFixed(1)} min (${(all / TICKS_PER_SECOND).toFixed(0)} s of CPU in all):`,
    ...rows,
  ].join('\n')
}

async function main(): Promise<void> {
  const [command = 'npm', ...args] = process.argv.length > 2 ? process.argv.slice(2) : ['npm', 'test']
  const started = Date.now()
  const { sample, totals } = sampler()
  sample()
  const timer = setInterval(sample, SAMPLE_MS)
  const code = await new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' })
    child.on('close', (exit) => resolve(exit ?? 1))
  })
  clearInterval(timer)
  sample()
  console.log(`\n${report(totals, (Date.now() - started) / 1000)}`)
  process.exitCode = code
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()

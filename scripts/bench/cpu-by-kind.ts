// Where a benchmark's CPU goes: CPU seconds of every process under a root (the stack's supervisor,
// a runner), summed by kind of process: Postgres, the gateway, Deno functions, the runner, each
// kind of Chromium process, the sandboxes. Linux only (/proc).
import { readFileSync } from 'node:fs'
import { type ProcInfo, processTree } from '../../runner/src/process-stats.ts'

const NODE_SCRIPTS: [RegExp, string][] = [
  [/stack\/gateway\//, 'gateway'],
  [/runner\/src\/main/, 'runner (Node, with the BiDi mapper)'],
  [/stack\/sandbox\//, 'sandboxes'],
  [/stack\/src\/cli\.ts supervise/, 'supervisor'],
  [/vite/, 'web (vite)'],
]

/** What a process is, from its command line (a Postgres backend's is its process title). */
export function processKind(pid: number): string {
  let command: string
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return 'other'
  }
  const program = command.split(' ')[0] ?? ''
  if (/chrom/i.test(program)) {
    const type = /--type=([a-z-]+)/.exec(command)?.[1]
    return type ? `Chromium ${type}` : 'Chromium browser'
  }
  if (/^postgres/.test(command) || /\/postgres$/.test(program)) return 'Postgres'
  if (/deno/.test(program)) return 'Deno (functions)'
  return NODE_SCRIPTS.find(([pattern]) => pattern.test(command))?.[1] ?? 'other'
}

/** CPU seconds of each live process under the roots, the roots included. */
export function cpuByPid(...roots: number[]): Map<number, number> {
  return new Map(roots.flatMap((root) => processTree(root)).map((p) => [p.pid, p.cpuTicks / 100]))
}

/**
 * CPU used between two snapshots, by kind, as % of one core over `seconds`, largest first. A process
 * missing from `after` is missed (its CPU went with it) unless a CpuTracker kept it; one that
 * started is counted whole.
 */
export function cpuByKind(
  before: Map<number, number>,
  after: Map<number, number>,
  seconds: number,
  kindOf: (pid: number) => string = processKind,
) {
  const byKind = new Map<string, number>()
  for (const [pid, cpu] of after) {
    const kind = kindOf(pid)
    byKind.set(kind, (byKind.get(kind) ?? 0) + cpu - (before.get(pid) ?? 0))
  }
  return [...byKind]
    .map(([kind, cpu]) => ({ kind, percent: Math.round((cpu / seconds) * 100), cpuSeconds: cpu }))
    .filter((k) => k.cpuSeconds > 0)
    .sort((a, b) => b.cpuSeconds - a.cpuSeconds)
}

/**
 * CPU per process under a root, exited processes included: each sample remembers every process's
 * CPU seconds and kind, so a process that ends between samples (a renderer whose page closed)
 * still counts up to its last sample instead of vanishing from the sums. Sample every few seconds.
 */
export class CpuTracker {
  readonly #seen = new Map<number, { cpu: number; kind: string }>()

  constructor(readonly root: number) {}

  /** CPU seconds of every process seen so far (the last sample of those that exited). */
  sample(tree: ProcInfo[] = processTree(this.root)): Map<number, number> {
    for (const { pid, cpuTicks } of tree) {
      const cpu = cpuTicks / 100
      // read again while unknown: Chromium starts as its launcher shell script, then execs the browser
      const known = this.#seen.get(pid)?.kind
      const kind = known && known !== 'other' ? known : processKind(pid)
      this.#seen.set(pid, { cpu, kind })
    }
    return new Map([...this.#seen].map(([pid, { cpu }]) => [pid, cpu]))
  }

  kindOf = (pid: number): string => this.#seen.get(pid)?.kind ?? 'other'
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat. */
export function machineBusySeconds(): number {
  const ticks = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  const total = ticks.reduce((sum, t) => sum + t, 0)
  return (total - (ticks[3] ?? 0) - (ticks[4] ?? 0)) / 100
}

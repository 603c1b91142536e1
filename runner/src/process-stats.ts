// CPU and memory of the runner and every process under it (Chromium and its renderers), read from
// /proc: what the heartbeat reports and what the benchmark measures. Linux only; elsewhere the
// runner's own figures.
import { readdirSync, readFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

export interface ProcInfo {
  pid: number
  ppid: number
  cpuTicks: number
  rssBytes: number
}

/** Proportional set size: shared pages divided among the processes that share them. */
function pssBytes(pid: number): number | undefined {
  try {
    const kb = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

/** ppid and CPU ticks from /proc/<pid>/stat (the command name may hold spaces and parentheses: fields start after the last ')'). */
function parseStat(pid: number, stat: string): Omit<ProcInfo, 'rssBytes'> {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { pid, ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) }
}

const rssOf = (status: string) => Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024

/** `root` and its descendants among `all`, root first. */
function descendants<P extends { pid: number; ppid: number }>(all: P[], root: number): P[] {
  const children = new Map<number, P[]>()
  for (const p of all) {
    const siblings = children.get(p.ppid)
    if (siblings) siblings.push(p)
    else children.set(p.ppid, [p])
  }
  const tree: P[] = []
  const self = all.find((p) => p.pid === root)
  if (self) tree.push(self)
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      tree.push(child)
      visit(child.pid)
    }
  }
  visit(root)
  return tree
}

/** Reads between two turns of the event loop in processTreeYielding. */
const READS_PER_TURN = 32

/**
 * The tree's processes read from /proc: the stat of every process (to find the tree), then the
 * status of the tree's only (RSS). Yields after every READS_PER_TURN reads, so a caller can let
 * other work run between them; processTree ignores the yields.
 */
function* scanTree(root: number): Generator<void, ProcInfo[]> {
  let names: string[]
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return []
  }
  let reads = 0
  const all: Omit<ProcInfo, 'rssBytes'>[] = []
  for (const name of names) {
    if (++reads % READS_PER_TURN === 0) yield
    try {
      all.push(parseStat(Number(name), readFileSync(`/proc/${name}/stat`, 'utf8')))
    } catch {
      // gone since the listing
    }
  }
  const tree: ProcInfo[] = []
  for (const p of descendants(all, root)) {
    if (++reads % READS_PER_TURN === 0) yield
    try {
      tree.push({ ...p, rssBytes: rssOf(readFileSync(`/proc/${p.pid}/status`, 'utf8')) })
    } catch {
      // gone since its stat
    }
  }
  return tree
}

/** The process and all its descendants. */
export function processTree(root = process.pid): ProcInfo[] {
  const scan = scanTree(root)
  for (let step = scan.next(); ; step = scan.next()) if (step.done) return step.value
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * processTree without holding the event loop, for the runner itself (its heartbeat). Read at once,
 * the scan of the 500-account bench's few hundred processes held the runner's event loop about
 * 135 ms every heartbeat, which admission read as an overloaded runner. (Reads through libuv's
 * thread pool took twice the CPU for the same.)
 */
export async function processTreeYielding(root = process.pid): Promise<ProcInfo[]> {
  const scan = scanTree(root)
  for (let step = scan.next(); ; step = scan.next()) {
    if (step.done) return step.value
    await nextTurn()
  }
}

export interface TreeUsage {
  processes: number
  rssMb: number
  cpuSeconds: number
}

/** Summed PSS of these processes, in MB (a process whose PSS cannot be read counts its RSS). */
export function pssMb(tree: ProcInfo[]): number {
  return tree.reduce((sum, p) => sum + (pssBytes(p.pid) ?? p.rssBytes), 0) / 1048576
}

/** What a tree of processes uses (the runner's own figures when /proc had none). */
function usageOf(tree: ProcInfo[]): TreeUsage {
  if (tree.length === 0) {
    const usage = process.cpuUsage()
    return {
      processes: 1,
      rssMb: process.memoryUsage.rss() / 1048576,
      cpuSeconds: (usage.user + usage.system) / 1e6,
    }
  }
  return {
    processes: tree.length,
    rssMb: tree.reduce((sum, p) => sum + p.rssBytes, 0) / 1048576,
    cpuSeconds: tree.reduce((sum, p) => sum + p.cpuTicks, 0) / TICKS_PER_SECOND,
  }
}

/** CPU % of the tree since the previous call (100 = one core busy), memory, load. */
export class UsageMeter {
  #last: { at: number; cpuSeconds: number } | undefined

  constructor(readonly root = process.pid) {}

  async sample(): Promise<{
    cpuPercent: number
    memoryMb: number
    memoryPercent: number
    loadAverage: number[]
    processes: number
  }> {
    const usage = usageOf(await processTreeYielding(this.root))
    const now = Date.now()
    const cpuPercent = this.#last
      ? Math.max(0, ((usage.cpuSeconds - this.#last.cpuSeconds) / ((now - this.#last.at) / 1000)) * 100)
      : 0
    this.#last = { at: now, cpuSeconds: usage.cpuSeconds }
    return {
      cpuPercent: Math.min(cpuPercent, 100 * Math.max(1, cpus().length)),
      memoryMb: usage.rssMb,
      memoryPercent: Math.min(100, (usage.rssMb * 1048576 * 100) / totalmem()),
      loadAverage: loadavg(),
      processes: usage.processes,
    }
  }
}

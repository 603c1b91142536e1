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

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'))
    return { ...stat, rssBytes: rssOf(readFileSync(`/proc/${pid}/status`, 'utf8')) }
  } catch {
    return undefined
  }
}

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

/** The process and all its descendants. */
export function processTree(root = process.pid): ProcInfo[] {
  try {
    const all = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((name) => readProc(Number(name)))
      .filter((p): p is ProcInfo => p !== undefined)
    return descendants(all, root)
  } catch {
    return []
  }
}

/** Yields to the event loop every this many /proc reads in processTreeYielding. */
const READS_PER_TURN = 32

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * processTree without holding the event loop, for the runner itself (its heartbeat): it reads
 * only the stat of every process and the status of the tree's, and lets other work run every
 * READS_PER_TURN reads. The synchronous scan reads two files of every process on the machine at
 * once; with the 500-account bench's few hundred processes that held the runner's event loop about
 * 135 ms every heartbeat, which admission read as an overloaded runner. (Reads through libuv's
 * thread pool took twice the CPU for the same.)
 */
export async function processTreeYielding(root = process.pid): Promise<ProcInfo[]> {
  let names: string[]
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return []
  }
  const all: Omit<ProcInfo, 'rssBytes'>[] = []
  for (const [index, name] of names.entries()) {
    if (index % READS_PER_TURN === READS_PER_TURN - 1) await nextTurn()
    try {
      all.push(parseStat(Number(name), readFileSync(`/proc/${name}/stat`, 'utf8')))
    } catch {
      // gone since the listing
    }
  }
  const tree: ProcInfo[] = []
  for (const [index, p] of descendants(all, root).entries()) {
    if (index % READS_PER_TURN === READS_PER_TURN - 1) await nextTurn()
    try {
      tree.push({ ...p, rssBytes: rssOf(readFileSync(`/proc/${p.pid}/status`, 'utf8')) })
    } catch {
      // gone since its stat
    }
  }
  return tree
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

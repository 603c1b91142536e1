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

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name may hold spaces and parentheses: fields start after the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    return {
      pid,
      ppid: Number(fields[1]),
      cpuTicks: Number(fields[11]) + Number(fields[12]),
      rssBytes: rssKb * 1024,
    }
  } catch {
    return undefined
  }
}

/** The process and all its descendants. */
export function processTree(root = process.pid): ProcInfo[] {
  let all: ProcInfo[]
  try {
    all = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((name) => readProc(Number(name)))
      .filter((p): p is ProcInfo => p !== undefined)
  } catch {
    return []
  }
  const children = new Map<number, ProcInfo[]>()
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p])
  const tree: ProcInfo[] = []
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      tree.push(child)
      visit(child.pid)
    }
  }
  const self = all.find((p) => p.pid === root)
  if (self) tree.push(self)
  visit(root)
  return tree
}

export interface TreeUsage {
  processes: number
  rssMb: number
  /** Summed PSS when asked for (shared pages counted once overall); else undefined. */
  pssMb?: number
  cpuSeconds: number
}

/** Summed PSS of these processes, in MB (a process whose PSS cannot be read counts its RSS). */
export function pssMb(tree: ProcInfo[]): number {
  return tree.reduce((sum, p) => sum + (pssBytes(p.pid) ?? p.rssBytes), 0) / 1048576
}

export function treeUsage(root = process.pid, withPss = false): TreeUsage {
  const tree = processTree(root)
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
    ...(withPss ? { pssMb: pssMb(tree) } : {}),
    cpuSeconds: tree.reduce((sum, p) => sum + p.cpuTicks, 0) / TICKS_PER_SECOND,
  }
}

/** CPU % of the tree since the previous call (100 = one core busy), memory, load. */
export class UsageMeter {
  #last: { at: number; cpuSeconds: number } | undefined

  constructor(readonly root = process.pid) {}

  sample(): {
    cpuPercent: number
    memoryMb: number
    memoryPercent: number
    loadAverage: number[]
    processes: number
  } {
    const usage = treeUsage(this.root)
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

// What the runner process costs while the bench runs, sampled every 2 s: peak RSS of the runner
// with its Chromium tree, peak processes and browsers (Chromium browser processes: one per shared
// browser, not per account), CPU per process (exited renderers included) and the runner's own count
// of cold session opens and its admission control's state from its health endpoint; peak PSS every
// 10 s. The sampler shares the machine it measures: reading every Chromium process's smaps_rollup
// every 2 s (and /proc three times a sample) cost 9 % of a core at 500 accounts, so /proc is read
// once a sample and PSS, which moves with the contexts over minutes, a fifth as often.
import { loadavg } from 'node:os'
import { processTree, pssMb } from '../../runner/src/process-stats.ts'
import { CpuTracker } from './cpu-by-kind.ts'

/** Samples between two PSS readings. */
const PSS_EVERY = 5

export interface AdmissionSample {
  jobs: number
  pressure: string
  lagMs: number
  runQueuePerCore: number
}

export class RunnerSampler {
  readonly cpu: CpuTracker
  peakPssMb = 0
  peakRssMb = 0
  peakProcesses = 0
  peakBrowsers = 0
  opened = 0
  restored = 0
  evicted = 0
  loads: number[] = []
  /** The runner's admission control at each sample: its job limit, pressure and what it read. */
  admission: AdmissionSample[] = []
  #timer: ReturnType<typeof setInterval> | undefined
  #samples = 0

  constructor(
    readonly pid: number,
    readonly healthPort: number,
  ) {
    this.cpu = new CpuTracker(pid)
  }

  start(): void {
    this.#timer = setInterval(() => void this.sample().catch(() => undefined), 2_000)
  }

  stop(): void {
    clearInterval(this.#timer)
  }

  async sample(): Promise<void> {
    this.loads.push(loadavg()[0] ?? 0)
    const tree = processTree(this.pid)
    this.cpu.sample(tree)
    if (this.#samples++ % PSS_EVERY === 0) this.peakPssMb = Math.max(this.peakPssMb, pssMb(tree))
    this.peakRssMb = Math.max(this.peakRssMb, tree.reduce((sum, p) => sum + p.rssBytes, 0) / 1048576)
    this.peakProcesses = Math.max(this.peakProcesses, tree.length)
    const browsers = tree.filter((p) => this.cpu.kindOf(p.pid) === 'Chromium browser').length
    this.peakBrowsers = Math.max(this.peakBrowsers, browsers)
    await this.readHealth()
  }

  /** The runner's counters (cold opens, evictions) as its health endpoint reports them. */
  async readHealth(): Promise<void> {
    const response = await fetch(`http://127.0.0.1:${this.healthPort}/health`)
    const health = (await response.json()) as {
      openedSessions?: number
      restoredSessions?: number
      evictedSessions?: number
      admission?: AdmissionSample
    }
    this.opened = health.openedSessions ?? this.opened
    this.restored = health.restoredSessions ?? this.restored
    this.evicted = health.evictedSessions ?? this.evicted
    if (health.admission) this.admission.push(health.admission)
  }
}

// One Deno process per edge function, started on its first call on a port from
// config.ports.functions upward, restarted on the next call after it dies. When every port of the
// range is taken, the least recently used idle function is stopped to make room.
import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureDir, repoRoot, type StackConfig } from '../../../src/config.ts'
import { functionEnv } from './env.ts'

/** Ports from config.ports.functions up to (not including) the first sandbox port. */
export const FUNCTION_PORT_COUNT = 10
const START_TIMEOUT_MS = 30_000

const bootstrap = fileURLToPath(new URL('./deno-bootstrap.js', import.meta.url))
const deno = join(repoRoot, 'node_modules', '.bin', 'deno')

interface Running {
  name: string
  port: number
  child: ChildProcess
  ready: Promise<void>
  inFlight: number
  lastUsed: number
}

export class FunctionStartError extends Error {}

/**
 * The chosen port was taken between the check and Deno's bind: the function ports lie in the
 * machine's ephemeral range, so any outgoing connection can hold one as its local port (nobody
 * answers on it, yet it cannot be bound). Such a start is tried again on another port.
 */
class PortTakenError extends FunctionStartError {}

/** Starts tried on other ports after a port turned out taken, before the call fails. */
const PORT_ATTEMPTS = 3
/** How long a port found taken is passed over. */
const TAKEN_PORT_MS = 60_000

const FUNCTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      // A connect to a free port in the ephemeral range can land on itself (TCP simultaneous open):
      // that is nobody listening.
      const self = socket.localPort === port
      socket.destroy()
      resolve(!self)
    })
    socket.once('error', () => resolve(false))
  })
}

/** Until the process's output is read to its end (its exit can come before its last stderr lines). */
function drained(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.stderr?.readableEnded ?? true) return resolve()
    const timer = setTimeout(resolve, 1_000)
    child.once('close', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

export class FunctionPool {
  private readonly running = new Map<string, Running>()
  /** Starts under way, so concurrent first calls share one process instead of racing for ports. */
  private readonly starting = new Map<string, Promise<Running>>()

  constructor(
    private readonly config: StackConfig,
    private readonly roots: string[],
    private readonly log: (
      level: 'info' | 'warn' | 'error',
      message: string,
      meta?: Record<string, unknown>,
    ) => void,
  ) {}

  /** The entry file of a function, or undefined when no root has it (names starting `_` are shared code). */
  entryOf(name: string): string | undefined {
    if (!FUNCTION_NAME.test(name)) return undefined
    for (const root of this.roots) {
      const file = join(root, name, 'index.ts')
      if (existsSync(file)) return file
    }
    return undefined
  }

  /** Ports found taken at bind, and when: passed over for a while. */
  private readonly takenPorts = new Map<number, number>()

  /** A live process for the function (started if needed); the caller must call `release`. */
  async acquire(name: string, entry: string): Promise<Running> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.acquireOnce(name, entry)
      } catch (error) {
        if (!(error instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw error
      }
    }
  }

  private async acquireOnce(name: string, entry: string): Promise<Running> {
    let current = this.running.get(name)
    if (!current || current.child.exitCode !== null || current.child.signalCode !== null) {
      let pending = this.starting.get(name)
      if (!pending) {
        pending = this.start(name, entry).finally(() => this.starting.delete(name))
        this.starting.set(name, pending)
      }
      current = await pending
    }
    current.inFlight++
    current.lastUsed = Date.now()
    try {
      await current.ready
    } catch (error) {
      current.inFlight--
      throw error
    }
    return current
  }

  /** Forgets a process that refused a connection: it is dying, and the next acquire starts a new one. */
  discard(process: Running): void {
    this.stopOne(process)
  }

  release(process: Running): void {
    process.inFlight = Math.max(0, process.inFlight - 1)
  }

  private async freePort(): Promise<number> {
    const used = new Set([...this.running.values()].map((r) => r.port))
    const now = Date.now()
    for (const [port, at] of this.takenPorts) if (now - at > TAKEN_PORT_MS) this.takenPorts.delete(port)
    for (let offset = 0; offset < FUNCTION_PORT_COUNT; offset++) {
      const port = this.config.ports.functions + offset
      if (!used.has(port) && !this.takenPorts.has(port) && !(await portAnswers(port))) return port
    }
    const idle = [...this.running.values()]
      .filter((r) => r.inFlight === 0)
      .sort((a, b) => a.lastUsed - b.lastUsed)[0]
    if (!idle) throw new FunctionStartError('Every function port is busy')
    this.stopOne(idle)
    await new Promise((resolve) => idle.child.once('exit', resolve))
    return idle.port
  }

  private async start(name: string, entry: string): Promise<Running> {
    const port = await this.freePort()
    const env = {
      ...(await functionEnv(this.config)),
      REACHFLOW_FUNCTION_PORT: String(port),
      REACHFLOW_FUNCTION_ENTRY: pathToFileURL(entry).href,
      REACHFLOW_FUNCTION_NAME: name,
    }
    const child = spawn(
      deno,
      [
        'run',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--no-prompt',
        '--config',
        join(repoRoot, 'deno.json'),
        bootstrap,
      ],
      { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const logFile = createWriteStream(join(ensureDir(this.config.logDir), `function-${name}.log`), {
      flags: 'a',
    })
    child.stdout?.pipe(logFile)
    child.stderr?.pipe(logFile)
    // deno-bootstrap.js prints this from Deno.serve's onListen. Waiting for it rather than probing the
    // port with connects avoids the self-connect that leaves the port in TIME_WAIT (AddrInUse).
    let listening = false
    let stdoutTail = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutTail = (stdoutTail + chunk.toString()).slice(-300)
      if (stdoutTail.includes(`listening on 127.0.0.1:${port}`)) listening = true
    })
    let stderrTail = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-2000)
    })
    const entryState: Running = {
      name,
      port,
      child,
      ready: Promise.resolve(),
      inFlight: 0,
      lastUsed: Date.now(),
    }
    child.once('exit', (code, signal) => {
      if (this.running.get(name) === entryState) this.running.delete(name)
      this.log('warn', `function ${name} exited`, { code, signal, stderr: stderrTail.slice(-500) })
    })
    entryState.ready = this.waitListening(
      entryState,
      () => stderrTail,
      () => listening,
    )
    entryState.ready.catch(() => this.stopOne(entryState))
    this.running.set(name, entryState)
    this.log('info', `function ${name} starting on port ${port}`)
    return entryState
  }

  private async waitListening(
    process: Running,
    stderr: () => string,
    listening: () => boolean,
  ): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS
    while (Date.now() < deadline) {
      if (process.child.exitCode !== null || process.child.signalCode !== null) {
        await drained(process.child)
        if (/AddrInUse/.test(stderr())) {
          this.takenPorts.set(process.port, Date.now())
          this.log('warn', `function ${process.name}: port ${process.port} was taken, starting on another`)
          throw new PortTakenError(`Function ${process.name} could not bind port ${process.port}`)
        }
        throw new FunctionStartError(
          `Function ${process.name} exited while starting: ${stderr().trim().split('\n').pop() ?? ''}`,
        )
      }
      if (listening()) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new FunctionStartError(
      `Function ${process.name} did not start listening within ${START_TIMEOUT_MS / 1000} s`,
    )
  }

  private stopOne(process: Running): void {
    if (this.running.get(process.name) === process) this.running.delete(process.name)
    if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGTERM')
  }

  stopAll(): void {
    for (const process of [...this.running.values()]) this.stopOne(process)
  }
}

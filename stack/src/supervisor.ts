// Runs one stack instance: the database, then every service, until a signal says stop.
// One shutdown path: children get SIGTERM (their whole process group), then SIGKILL after 5 s,
// then PostgreSQL stops; the lock and status files are removed so nothing is left behind.
import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDir, type StackConfig } from './config.ts'
import { dbIsRunning, initCluster, migrate, startDb, stopDb } from './db.ts'
import { prepareDemo } from './demo.ts'
import { runsDemoRunner, type ServiceSpec, serviceSpecs } from './services.ts'
import { assertPortsFree, ensureSystemPackages, pidIsAlive, StackError, sleep, stopGroups } from './system.ts'

export interface StackStatus {
  instance: string
  state: 'starting' | 'ready' | 'failed'
  pid: number
  error?: string
  api_url: string
  anon_key: string
  service_role_key: string
  publishable_key: string
  secret_key: string
  db_url: string
  web_url: string
  stripe_url: string
  x_url: string
  instagram_url: string
  google_url: string
  ai_url: string
  mail_outbox_url: string
  logs: string
  services: Record<string, { pid: number | undefined; restarts: number }>
}

export function readStatus(config: StackConfig): StackStatus | undefined {
  if (!existsSync(config.statusFile)) return undefined
  try {
    return JSON.parse(readFileSync(config.statusFile, 'utf8')) as StackStatus
  } catch {
    return undefined
  }
}

/** The pid of a live supervisor of this instance, if one runs. */
export function runningSupervisor(config: StackConfig): number | undefined {
  if (!existsSync(config.lockFile)) return undefined
  const pid = Number(readFileSync(config.lockFile, 'utf8').trim())
  return Number.isInteger(pid) && pid > 0 && pidIsAlive(pid) ? pid : undefined
}

interface Running {
  spec: ServiceSpec
  child?: ChildProcess
  restarts: number
}

async function waitReady(url: string, child: ChildProcess, name: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new StackError(`${name} exited with code ${child.exitCode} while starting.`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) })
      if (response.status < 500) return
    } catch {
      // not listening yet
    }
    await sleep(150)
  }
  throw new StackError(`${name} did not answer at ${url} within ${timeoutMs / 1000} s.`)
}

export async function supervise(config: StackConfig, log: (line: string) => void): Promise<void> {
  const other = runningSupervisor(config)
  if (other) {
    throw new StackError(
      `Reachflow (${config.instance}) is already running (pid ${other}). Stop it with Ctrl-C in its terminal or \`npm run stack:down\`.`,
    )
  }
  ensureDir(config.dir)
  ensureDir(config.logDir)
  writeFileSync(config.lockFile, String(process.pid))
  const specs = serviceSpecs(config)
  const running: Running[] = specs.map((spec) => ({ spec, restarts: 0 }))
  let stopping = false

  const status: StackStatus = {
    instance: config.instance,
    state: 'starting',
    pid: process.pid,
    api_url: config.apiUrl,
    anon_key: config.anonKey,
    service_role_key: config.serviceRoleKey,
    publishable_key: config.publishableKey,
    secret_key: config.secretKey,
    db_url: config.dbUrl,
    web_url: config.webUrl,
    stripe_url: config.sandboxUrls.stripe,
    x_url: config.sandboxUrls.x,
    instagram_url: config.sandboxUrls.instagram,
    google_url: config.sandboxUrls.google,
    ai_url: config.sandboxUrls.ai,
    mail_outbox_url: `${config.apiUrl}/_outbox`,
    logs: config.logDir,
    services: {},
  }
  const writeStatus = () => {
    status.services = Object.fromEntries(
      running.map((r) => [r.spec.name, { pid: r.child?.pid, restarts: r.restarts }]),
    )
    writeFileSync(config.statusFile, `${JSON.stringify(status, null, 2)}\n`)
  }

  const launch = (entry: Running): ChildProcess => {
    const out = createWriteStream(join(config.logDir, `${entry.spec.name}.log`), { flags: 'a' })
    const child = spawn(entry.spec.command, entry.spec.args, {
      env: { ...process.env, ...entry.spec.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout?.pipe(out)
    child.stderr?.pipe(out)
    child.on('exit', (code, signal) => {
      if (stopping) return
      entry.restarts++
      const delay = Math.min(10_000, 500 * 2 ** Math.min(entry.restarts, 5))
      log(`${entry.spec.name} exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s.`)
      setTimeout(() => {
        if (stopping) return
        entry.child = launch(entry)
        writeStatus()
      }, delay)
    })
    return child
  }

  const shutdown = async (keepStatus = false) => {
    if (stopping) return
    stopping = true
    await stopGroups(running.map((entry) => entry.child))
    stopDb(config)
    if (!keepStatus) rmSync(config.statusFile, { force: true })
    if (config.instance === 'dev') rmSync(join(config.dir, '..', 'status.json'), { force: true })
    rmSync(config.lockFile, { force: true })
  }

  let resolveDone: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      log('Stopping…')
      void shutdown().then(resolveDone)
    })
  }

  try {
    writeStatus() // replaces whatever an earlier, failed run left
    ensureSystemPackages(log)
    const ports: Record<string, number> = { ...config.ports }
    delete ports.functions // a range, checked by the gateway per function
    if (dbIsRunning(config)) delete ports.db // a cluster left running by a killed supervisor is reused
    await assertPortsFree(ports)
    initCluster(config)
    await startDb(config)
    await migrate(config, log)
    writeStatus()
    const launchAndWait = async (entries: Running[]) => {
      for (const entry of entries) entry.child = launch(entry)
      writeStatus()
      await Promise.all(
        entries.map((entry) =>
          entry.spec.readyUrl && entry.child
            ? waitReady(entry.spec.readyUrl, entry.child, entry.spec.name)
            : undefined,
        ),
      )
    }
    await launchAndWait(running.filter((entry) => !entry.spec.startsLast))
    if (runsDemoRunner(config))
      await prepareDemo(config, log).catch((error: unknown) =>
        log(`The demo account could not be signed in: ${error instanceof Error ? error.message : error}`),
      )
    await launchAndWait(running.filter((entry) => entry.spec.startsLast))
    status.state = 'ready'
    writeStatus()
    if (config.instance === 'dev')
      writeFileSync(join(config.dir, '..', 'status.json'), readFileSync(config.statusFile))
  } catch (error) {
    status.state = 'failed'
    status.error = error instanceof Error ? error.message : String(error)
    writeStatus()
    await shutdown(true)
    throw error
  }
  await done
}

// `npm start`, `npm run stack:up|down|status|reset`: one entry point for the local stack.
import { spawn } from 'node:child_process'
import { openSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureDir, type StackConfig, stackConfig } from './config.ts'
import { dbIsRunning, destroyCluster, stopDb } from './db.ts'
import { readStatus, runningSupervisor, type StackStatus, supervise } from './supervisor.ts'
import { pidIsAlive, requireProjectNode, StackError, sleep } from './system.ts'

const log = (line: string) => console.log(`[stack] ${line}`)

export const DEMO_LOGINS = [
  { email: 'demo@reachflow.test', password: 'demo-password', role: 'customer' },
  { email: 'admin@reachflow.test', password: 'admin-password', role: 'admin' },
]

function banner(status: StackStatus): string {
  return [
    '',
    `  Reachflow is running (${status.instance}).`,
    '',
    `  Web app       ${status.web_url}`,
    `  API URL       ${status.api_url}`,
    `  Anon key      ${status.anon_key}`,
    `  Database      ${status.db_url}`,
    `  Mail outbox   ${status.mail_outbox_url}`,
    `  Sandboxes     Stripe ${status.stripe_url}  X ${status.x_url}  Instagram ${status.instagram_url}  Google ${status.google_url}  AI ${status.ai_url}`,
    `  Logs          ${status.logs}`,
    '',
    ...DEMO_LOGINS.map((login) => `  Demo ${login.role.padEnd(9)} ${login.email} / ${login.password}`),
    '',
  ].join('\n')
}

async function startForeground(config: StackConfig): Promise<void> {
  const started = Date.now()
  const printWhenReady = async () => {
    for (;;) {
      const status = readStatus(config)
      if (status?.state === 'ready' && status.pid === process.pid) {
        console.log(banner(status))
        log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Press Ctrl-C to stop everything.`)
        return
      }
      if (status?.state === 'failed' && status.pid === process.pid) return
      await sleep(200)
    }
  }
  void printWhenReady()
  await supervise(config, log)
  log('Stopped.')
}

/** Starts the supervisor detached, with its output in the instance's log folder, and waits until ready. */
export async function startBackground(config: StackConfig, quiet = false): Promise<StackStatus> {
  const existing = runningSupervisor(config)
  if (existing) {
    const status = readStatus(config)
    if (status?.state === 'ready') return status
  }
  ensureDir(config.logDir)
  const out = openSync(join(config.logDir, 'supervisor.log'), 'a')
  const cli = fileURLToPath(import.meta.url)
  const child = spawn(process.execPath, [...process.execArgv, cli, 'supervise'], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, STACK_INSTANCE: config.instance },
  })
  child.unref()
  const deadline = Date.now() + 10 * 60_000 // a first run may install apt packages
  while (Date.now() < deadline) {
    const status = readStatus(config)
    if (status && status.pid === child.pid && status.state === 'ready') {
      if (!quiet) console.log(banner(status))
      return status
    }
    if (status && status.pid === child.pid && status.state === 'failed')
      throw new StackError(status.error ?? 'Stack failed.')
    if (child.pid && !pidIsAlive(child.pid)) {
      throw new StackError(`The stack stopped while starting; see ${join(config.logDir, 'supervisor.log')}.`)
    }
    await sleep(200)
  }
  throw new StackError('The stack did not become ready within 10 minutes.')
}

export async function stopBackground(config: StackConfig): Promise<boolean> {
  const pid = runningSupervisor(config)
  if (pid) {
    process.kill(pid, 'SIGTERM')
    const deadline = Date.now() + 20_000
    while (pidIsAlive(pid) && Date.now() < deadline) await sleep(100)
    if (pidIsAlive(pid)) process.kill(pid, 'SIGKILL')
  }
  const dbWasUp = dbIsRunning(config)
  stopDb(config)
  return Boolean(pid) || dbWasUp
}

async function main(): Promise<void> {
  const command = process.argv[2]
  const config = stackConfig()
  if (command === 'start' || command === 'supervise' || command === 'up' || command === 'reset')
    log(`Node ${requireProjectNode()}`)
  switch (command) {
    case 'start':
      return startForeground(config)
    case 'supervise':
      return supervise(config, log)
    case 'up':
      await startBackground(config)
      return
    case 'down':
      log(
        (await stopBackground(config))
          ? `Stopped (${config.instance}).`
          : `Nothing was running (${config.instance}).`,
      )
      return
    case 'status': {
      const status = runningSupervisor(config) ? readStatus(config) : undefined
      if (!status) {
        log(`Not running (${config.instance}). Start it with \`npm start\` or \`npm run stack:up\`.`)
        process.exitCode = 1
        return
      }
      console.log(JSON.stringify(status, null, 2))
      return
    }
    case 'env': {
      // `eval "$(npx tsx stack/src/cli.ts env)"` gives a shell what `npm test` gives the suites,
      // so one test file can run against an instance started with stack:up.
      const { testEnv } = await import('./test-env.ts')
      for (const [key, value] of Object.entries(testEnv(config))) console.log(`export ${key}='${value}'`)
      return
    }
    case 'reset':
      await stopBackground(config)
      destroyCluster(config)
      log(`Removed ${config.dir}; starting from nothing.`)
      await startBackground(config)
      return
    default:
      throw new StackError('Usage: tsx stack/src/cli.ts start|up|down|status|reset|env')
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    if (error instanceof StackError) {
      console.error(`[stack] ${error.message}`)
    } else {
      console.error('[stack] Unexpected failure:', error)
    }
    process.exit(1)
  })
}

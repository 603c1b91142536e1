// The runner process: `tsx runner/src/main.ts` (the local stack starts it as a service). Reads its
// settings from the environment (config.ts), works jobs until SIGTERM/SIGINT (graceful, exit 0) or
// a restart command (exit 75, which the supervisor answers by starting it again).
import { configFromEnv } from './config.ts'
import { Runner } from './runner.ts'

/** The graceful shutdown's own time limit (its steps have shorter ones; this is the backstop). */
const SHUTDOWN_LIMIT_MS = 60_000

async function main(): Promise<void> {
  let config: ReturnType<typeof configFromEnv>
  try {
    config = configFromEnv()
  } catch (error) {
    console.error(`[runner] ${error instanceof Error ? error.message : String(error)}`)
    process.exit(2)
  }
  console.log(`[runner] Node ${process.version}`)
  const runner = new Runner(config)
  let exiting = false
  const exit = (code: number) => {
    if (exiting) return
    exiting = true
    process.exit(code)
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      // a shutdown step that hangs (a browser that no longer answers) must not keep the process:
      // whatever is unfinished then is what a crash leaves, which the next runner settles
      setTimeout(() => exit(0), SHUTDOWN_LIMIT_MS).unref()
      void runner.stop(signal).finally(() => exit(0))
    })
  }
  process.on('unhandledRejection', (reason) => {
    // a browser protocol promise nobody awaited must not take the runner down
    void runner.log.error('scheduler', 'Unhandled rejection', {
      error: reason instanceof Error ? reason : String(reason),
    })
  })
  process.on('uncaughtException', (error) => {
    void runner.log.error('scheduler', `Uncaught exception: ${error.message}`).finally(() => exit(1))
  })
  try {
    await runner.start()
  } catch (error) {
    console.error('[runner] Could not start:', error instanceof Error ? error.message : error)
    await runner.stop('start failed').catch(() => undefined)
    exit(1)
    return
  }
  exit(await runner.exitRequested)
}

void main()

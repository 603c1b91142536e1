// BENCH_BUSY_CORE=1: a second process keeping one core busy, as other work on the machine would
// (throughput must fall gracefully: no tick fails and no account is flagged for a slow machine).
// It never outlives the bench: killed when the bench stops it or exits, and, should the bench die
// without either (SIGKILL), it sees itself orphaned within a moment and exits.
import { spawn } from 'node:child_process'

/** Starts the busy process; the function returned kills it (again is harmless). */
export function busyCore(): () => void {
  const loop = `for (let i = 1; ; i++) if (i % 1e8 === 0 && process.ppid !== ${process.pid}) process.exit()`
  const child = spawn(process.execPath, ['-e', loop], { stdio: 'ignore' })
  const stop = () => {
    process.off('exit', stop)
    child.kill('SIGKILL')
  }
  process.on('exit', stop)
  return stop
}

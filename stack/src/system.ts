// Makes sure the Debian packages the stack needs are present: installs them when we are root,
// otherwise says the exact command to run. Also the small process helpers the stack shares.
import { type ChildProcess, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'

export class StackError extends Error {
  override name = 'StackError'
}

export const PG_BIN = '/usr/lib/postgresql/15/bin'

/**
 * What must exist on disk, and which apt package provides it. A package with `sameVersionAs` is
 * installed at the version of that installed package (the server headers must match the server, and
 * asking apt for the newest would upgrade the server under running clusters).
 */
const REQUIRED: { path: string; pkg: string; sameVersionAs?: string }[] = [
  { path: `${PG_BIN}/postgres`, pkg: 'postgresql-15' },
  { path: '/usr/share/postgresql/15/extension/pg_cron.control', pkg: 'postgresql-15-cron' },
  { path: '/usr/share/postgresql/15/extension/pgtap.control', pkg: 'postgresql-15-pgtap' },
  { path: '/usr/bin/pg_prove', pkg: 'libtap-parser-sourcehandler-pgtap-perl' },
  { path: '/usr/bin/chromium', pkg: 'chromium' },
  // Headers (and, as its dependency, a C compiler) for stack/platform/ext (stack/src/platform-ext.ts).
  {
    path: '/usr/include/postgresql/15/server/postgres.h',
    pkg: 'postgresql-server-dev-15',
    sameVersionAs: 'postgresql-15',
  },
]

export const isRoot = () => process.getuid?.() === 0

function installedVersion(pkg: string): string | undefined {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's field syntax, not a template
  const result = spawnSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' })
  return result.status === 0 && result.stdout.trim() ? result.stdout.trim() : undefined
}

export function ensureSystemPackages(log: (line: string) => void = console.log): void {
  const missing = REQUIRED.filter((item) => !existsSync(item.path)).map((item) => {
    const version = item.sameVersionAs ? installedVersion(item.sameVersionAs) : undefined
    return version ? `${item.pkg}=${version}` : item.pkg
  })
  if (missing.length === 0) return
  const command = `apt-get update && apt-get install -y ${missing.join(' ')}`
  if (!isRoot()) {
    throw new StackError(
      `Missing system packages: ${missing.join(', ')}. Run as root: sudo sh -c '${command}'`,
    )
  }
  log(`Installing system packages: ${missing.join(', ')} (once; this can take a few minutes)…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...missing],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env })
    if (result.status !== 0) {
      throw new StackError(`"apt-get ${args.join(' ')}" failed. Fix apt (network, locks) and run: ${command}`)
    }
  }
}

/** Runs a command as the `postgres` OS user when we are root (initdb and pg_ctl refuse root). */
export function runAsPostgres(cmd: string, args: string[], options: { quiet?: boolean } = {}) {
  const [file, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
  const result = spawnSync(file, argv, { encoding: 'utf8' })
  if (result.status !== 0 && !options.quiet) {
    throw new StackError(`${cmd.split('/').pop()} failed: ${(result.stderr || result.stdout || '').trim()}`)
  }
  return result
}

export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, host, () => server.close(() => resolve(true)))
  })
}

const RESERVED_PORTS = '/proc/sys/net/ipv4/ip_local_reserved_ports'

/**
 * Keeps the kernel from handing the stack's fixed ports out as the local ports of outgoing
 * connections: Linux picks those from 32768–60999, where our ports live too, and under the test
 * suite's thousands of connections an instance started mid-run (the supervisor test's) once found
 * its port taken that way. As root this adds the range to `net.ipv4.ip_local_reserved_ports`
 * (binding a reserved port explicitly still works); without the right to, it changes nothing.
 */
export function reserveStackPorts(first: number, last: number): void {
  try {
    const current = readFileSync(RESERVED_PORTS, 'utf8').trim()
    const covered = current
      .split(',')
      .filter(Boolean)
      .some((range) => {
        const [low, high] = range.split('-').map(Number)
        return low !== undefined && low <= first && last <= (high ?? low)
      })
    if (!covered) writeFileSync(RESERVED_PORTS, [current, `${first}-${last}`].filter(Boolean).join(','))
  } catch {
    // Not Linux, or not allowed: ports stay first come, first served.
  }
}

export async function assertPortsFree(ports: Record<string, number>): Promise<void> {
  for (const [name, port] of Object.entries(ports)) {
    if (!(await portIsFree(port))) {
      throw new StackError(
        `Port ${port} (${name}) is already in use. Stop whatever uses it (\`ss -ltnp 'sport = :${port}'\` shows it) or set STACK_PORT_BASE=100 to move every port.`,
      )
    }
  }
}

export function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Signals a child spawned `detached` and everything it started (its process group), if still running. */
export function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Stops children spawned `detached`, each with everything it started: SIGTERM to every process
 * group, SIGKILL to whatever still runs after `graceMs`.
 */
export async function stopGroups(children: (ChildProcess | undefined)[], graceMs = 5_000): Promise<void> {
  for (const child of children) killGroup(child, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (
    Date.now() < deadline &&
    children.some((child) => child && child.exitCode === null && !child.signalCode)
  )
    await sleep(100)
  for (const child of children) killGroup(child, 'SIGKILL')
}

/** The Node major the project runs on: the `node` devDependency, which npm scripts find first on PATH. */
export const NODE_MAJOR = 24

/**
 * Fails with what to do when this process runs on an older Node (a script started without npm, so
 * the system's Node 20 ran it); returns the version for the start-up line otherwise.
 */
export function requireProjectNode(): string {
  const major = Number(process.versions.node.split('.')[0])
  if (major < NODE_MAJOR)
    throw new StackError(
      `Reachflow runs on Node ${NODE_MAJOR}, this is ${process.version}. Start it through npm (npm start, npm test, npm run …): npm scripts use the Node ${NODE_MAJOR} that \`npm install\` put in node_modules/.bin.`,
    )
  return process.version
}

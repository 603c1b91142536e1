// Server Processes: runner processes from their heartbeats, the hosts' load, and Restart / Kill,
// which ask a runner through runner_commands (it restarts or stops within one heartbeat; the
// supervisor starts a restarted runner again under a new PID).
import type { CommandRequest, HostInfo } from '@reachflow/domain'
import { jsonResponse, notFound } from '../_shared/errors.ts'
import { writeAuditLog } from './audit.ts'
import { type AdminContext, rpc } from './deps.ts'
import { num, systemInfo, toProcess } from './views.ts'

export const PROCESS_NOT_FOUND = 'Process not found'

export async function listProcesses(_req: Request, { db }: AdminContext): Promise<Response> {
  const rows = await rpc(db, 'admin_runner_processes')
  return jsonResponse(rows.map(toProcess))
}

export async function getSystemInfo(_req: Request, { db }: AdminContext): Promise<Response> {
  return jsonResponse(systemInfo(await rpc(db, 'admin_system_hosts')))
}

/** GET /hosts: the figures behind /system-info, one row per runner host and the database host. */
export async function listHosts(_req: Request, { db }: AdminContext): Promise<Response> {
  const rows = await rpc(db, 'admin_system_hosts')
  return jsonResponse(
    rows.map((row) => ({
      host: row.host,
      // admin_system_hosts writes only these two roles.
      role: row.role === 'database' ? 'database' : 'runner',
      cpu: num(row.cpu_percent),
      memoryPercentage: row.memory_percent === null ? null : num(row.memory_percent),
      loadAvg: (row.load_average ?? []).map((value) => num(value)),
      processes: num(row.runners),
    })) satisfies HostInfo[],
  )
}

const COMMAND_WORDS = { restart: 'Restart', stop: 'Stop' } as const

function requestCommand(command: 'restart' | 'stop') {
  return async (_req: Request, { db, admin, params }: AdminContext): Promise<Response> => {
    const name = params.name ?? ''
    if (name.length === 0 || name.length > 200) throw notFound(PROCESS_NOT_FOUND)
    const id = await rpc(db, 'admin_request_runner_command', {
      p_runner_id: name,
      p_command: command,
      p_by: admin.id,
    })
    if (!id) throw notFound(PROCESS_NOT_FOUND)
    await writeAuditLog(db, admin, `${COMMAND_WORDS[command]} requested for runner ${name}`, {
      runner: name,
      commandId: id,
    })
    return jsonResponse({ id, name, command, status: 'pending' } satisfies CommandRequest, 202)
  }
}

/** POST /processes/:name/restart */
export const restartProcess = requestCommand('restart')
/** POST /processes/:name/kill: the runner stops and stays down until started again. */
export const killProcess = requestCommand('stop')

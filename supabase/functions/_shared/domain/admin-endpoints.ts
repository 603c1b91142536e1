// Every route of the admin function (supabase/functions/admin/app.ts) with the body it takes, the
// query it reads and the answer it gives. The admin tab calls `adminRequest(key, …)` and gets the
// answer as this type; the function builds it with `satisfies` the same type, and
// tests/function-answers.test.ts checks the real answers against it at runtime.
import type {
  AccountDetail,
  Activity,
  AdminAccount,
  AdminCampaign,
  AdminLog,
  AdminProcess,
  AdminQueue,
  AdminStats,
  AdminUser,
  CampaignDetail,
  CommandRequest,
  FailedJob,
  HostInfo,
  QueueDetail,
  QueueStats,
  RetryStats,
  SystemInfo,
  UserDetail,
} from './admin.ts'
import type {
  CanaryCandidate,
  CanaryConfig,
  CanaryRun,
  CanarySettings,
  Incident,
  IncidentDetail,
  PackFacts,
  PackValidation,
  PlatformAction,
  PlatformAlerts,
  PlatformHealthOverview,
  PlatformPackView,
} from './admin-platform.ts'
import type { AdminWorkspace, WorkspaceDetail } from './admin-workspaces.ts'

/** GET /ai-usage: each workspace's AI use today (UTC, all its members together), heaviest first. */
export interface AiUsage {
  day: string
  /** The daily budget of each workspace. */
  requestLimit: number
  tokenLimit: number
  workspaces: {
    workspaceId: string
    name: string
    /** The owner's e-mail (null while the workspace has no owner). */
    ownerEmail: string | null
    requests: number
    tokens: number
    denied: number
    failures: number
    exhausted: boolean
  }[]
}

export interface LogsCleared {
  cleared: number
}
export interface JobRetried {
  id: string
  /** Absent when the database did not say. */
  queue?: string
  state: string
}
export interface JobDeleted {
  id: string
  deleted: boolean
}
export interface ActionResumed {
  resolved: number
  resumed: string[]
}
export interface CanaryQueued {
  runId: string
}
export interface CanaryAccountChoice {
  accountId: string
  threadId: string | null
}
export interface CanaryAccountRemoved {
  accountId: string
  removed: true
}
export interface PackTried {
  packId: string
  runId: string
  /** The draft's version; null when its facts name none. */
  version: string | null
}

type Get<Response, Query = undefined> = { request: undefined; query?: Query; response: Response }
type Post<Body, Response> = { request: Body; response: Response }
type ListQuery = { limit?: number }

export interface AdminEndpoints {
  'GET /stats': Get<AdminStats>
  'GET /recent-activity': Get<Activity[], ListQuery>
  'GET /processes': Get<AdminProcess[]>
  'GET /system-info': Get<SystemInfo>
  'GET /logs': Get<AdminLog[], { level?: string; service?: string; limit?: number }>
  'POST /logs/clear': Post<undefined, LogsCleared>
  'GET /queues': Get<AdminQueue[]>
  'GET /queue-stats': Get<QueueStats>
  'POST /queues/:name/pause': Post<undefined, AdminQueue>
  'POST /queues/:name/resume': Post<undefined, AdminQueue>
  'GET /retries': Get<FailedJob[], ListQuery>
  'GET /retry-stats': Get<RetryStats>
  'POST /retries/:id/retry': Post<undefined, JobRetried>
  'DELETE /retries/:id': Post<undefined, JobDeleted>
  'GET /users': Get<AdminUser[], ListQuery>
  'GET /campaigns': Get<AdminCampaign[], ListQuery>
  'GET /social-accounts': Get<AdminAccount[], ListQuery>
  'GET /workspaces': Get<AdminWorkspace[], ListQuery>

  'POST /processes/:name/restart': Post<undefined, CommandRequest>
  'POST /processes/:name/kill': Post<undefined, CommandRequest>
  'GET /hosts': Get<HostInfo[]>
  'GET /queues/:name': Get<QueueDetail>
  'GET /users/:id': Get<UserDetail>
  'GET /campaigns/:id': Get<CampaignDetail>
  'GET /social-accounts/:id': Get<AccountDetail>
  'GET /workspaces/:id': Get<WorkspaceDetail>
  /** minutes: null pauses until resumed. */
  'POST /social-accounts/:id/pause': Post<{ minutes: number | null }, AccountDetail>
  'POST /social-accounts/:id/resume': Post<undefined, AccountDetail>
  'GET /ai-usage': Get<AiUsage>

  'GET /platform-alerts': Get<PlatformAlerts>
  'GET /platform-health': Get<PlatformHealthOverview>
  'POST /platform-health/:platform/resume': Post<{ action: PlatformAction }, ActionResumed>
  'POST /platform-health/:platform/canary': Post<undefined, CanaryQueued>
  'GET /incidents': Get<Incident[], { status?: 'open' | 'all'; limit?: number }>
  'GET /incidents/:id': Get<IncidentDetail>
  'GET /canary-runs/:id': Get<CanaryRun>
  'GET /canary/:platform': Get<CanaryConfig>
  'GET /canary/:platform/candidates': Get<CanaryCandidate[], { q?: string; limit?: number }>
  'PUT /canary/:platform/settings': Post<CanarySettings, CanarySettings>
  'POST /canary/accounts': Post<CanaryAccountChoice, CanaryAccountChoice>
  'DELETE /canary/accounts/:id': Post<undefined, CanaryAccountRemoved>
  'GET /platform-packs/:platform': Get<PlatformPackView>
  'POST /platform-packs/:platform/validate': Post<{ facts: PackFacts }, PackValidation>
  'POST /platform-packs/:platform/try': Post<{ facts: PackFacts }, PackTried>
  'POST /platform-packs/:platform/publish': Post<{ packId: string; unchecked?: string[] }, PlatformPackView>
  'POST /platform-packs/:platform/rollback': Post<undefined, PlatformPackView>
}

export type AdminRoute = keyof AdminEndpoints
export type AdminAnswer<K extends AdminRoute> = AdminEndpoints[K]['response']

// What the admin function answers (docs/admin.md): the admin entities, plus the detail views behind
// View Details, Monitor, Manage and queue Details. The function builds each answer with `satisfies`
// one of these and the admin tab reads it as the same type, so a key renamed on one side fails the
// type check of the other.

/** Any JSON value, as free-form jsonb columns hold (the same shape as the generated `Json`). */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | { [key: string]: JsonValue | undefined }
  | JsonValue[]

export interface AdminStats {
  users: { total: number; active: number; trial: number; paid: number }
  campaigns: { total: number; active: number; paused: number; completed: number }
  accounts: { total: number; verified: number; warming: number; flagged: number }
  system: { uptime: number; activeWorkers: number; errorRate: number }
}

export interface Activity {
  id: string
  description: string
  timestamp: string
  type: string
  status: string
}

export interface AdminProcess {
  name: string
  pid: number
  status: string
  cpu: number
  memory: number
  uptime: number
}

export interface SystemInfo {
  cpu: { usage: number }
  memory: { percentage: number }
  loadAvg: number[]
}

export interface HostInfo {
  host: string
  role: 'runner' | 'database'
  cpu: number
  memoryPercentage: number | null
  loadAvg: number[]
  processes: number
}

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** A stored level as the Logs tab knows it (the system_logs check constraint allows only these four). */
export const logLevel = (level: string): LogLevel => LOG_LEVELS.find((known) => known === level) ?? 'debug'

export interface AdminLog {
  timestamp: string
  level: LogLevel
  service: string
  message: string
  /** Free-form JSON the writer chose; passed on as it is. */
  metadata: JsonValue
}

export interface AdminQueue {
  name: string
  status: 'active' | 'paused'
  pending: number
  active: number
  completed: number
  failed: number
  retrying: number
  rate: number
}

export interface QueueStats {
  totalJobs: number
  activeJobs: number
  failedJobs: number
  jobsPerHour: number
}

export interface QueueJob {
  id: string
  state: string
  created_on: string
  started_on: string | null
  completed_on: string | null
  /** When pg-boss may start it (a retry's back-off, a scheduled tick). */
  start_after: string
  retry_count: number
  retry_limit: number
  singleton_key: string | null
  data: Record<string, unknown> | null
  error: string | null
}

export interface QueueDetail {
  name: string
  policy: string | null
  retryLimit: number
  retryDelaySeconds: number
  retryBackoff: boolean
  expireSeconds: number | null
  paused: boolean
  pausedAt: string | null
  pausedBy: string | null
  recentJobs: QueueJob[]
  counts?: AdminQueue
}

export interface FailedJob {
  id: string
  jobType: string
  queue: string
  failedAt: string | null
  attempts: number
  maxAttempts: number
  error: string
}

export interface RetryStats {
  failedJobs: number
  retryingJobs: number
  maxRetriesJobs: number
  successRate: number
}

export interface AdminUser {
  id: string
  email: string
  subscription_status: string
  account_count: number
  campaign_count: number
  status: string
}

export interface AdminCampaign {
  id: string
  name: string
  user_email: string
  status: string
  messages_sent: number
  /** People messaged at least once. */
  contacted: number
  /** People the campaign will message or has messaged. */
  target_count: number
  response_count: number
  started_at: string | null
}

export interface AdminAccount {
  id: string
  username: string
  platform_name: string
  user_email: string
  status: string
  warmup_phase: number
  trust_score: number
  last_login: string | null
}

export interface UserDetail {
  id: string
  email: string
  fullName: string | null
  businessName: string | null
  isAdmin: boolean
  status: string
  subscriptionStatus: string
  subscriptionPlan: string
  onboardingCompleted: boolean
  createdAt: string
  lastSignInAt: string | null
  subscriptions: {
    id: string
    status: string
    planType: string
    billingPeriod: string
    accountsPurchased: number
    currentPeriodStart: string | null
    currentPeriodEnd: string | null
    cancelAtPeriodEnd: boolean
    trialEnd: string | null
    createdAt: string
  }[]
  accounts: Omit<AdminAccount, 'user_email'>[]
  campaigns: Omit<AdminCampaign, 'user_email' | 'contacted'>[]
  payments: {
    id: string
    amount: number
    currency: string
    status: string
    description: string | null
    created_at: string
  }[]
}

export interface MessageLogEntry {
  id: string
  status: string
  target_username: string
  message_sent?: string | null
  message_type?: string
  step?: number
  error: string | null
  sent_at: string
}

export interface CampaignDetail {
  id: string
  name: string
  status: string
  userEmail: string
  accountUsername: string | null
  platformName: string
  targetCount: number
  dailyMessageLimit: number
  messagesSent: number
  messagesFailed: number
  totalAttempts: number
  responseCount: number
  messagesSentToday: number
  errorMessage: string | null
  /** The campaign's schedule jsonb as stored (product.md §3 "Schedule", plus randomDaysOff). */
  schedule: {
    timezone?: string
    timeFrom?: string
    timeTo?: string
    activeDays?: string[]
    randomDaysOff?: boolean
  }
  createdAt: string
  startedAt: string | null
  pausedAt: string | null
  completedAt: string | null
  updatedAt: string
  nextActionAt: string | null
  leads: {
    total: number
    pending: number
    inFlight: number
    contacted: number
    replied: number
    failed: number
    skipped: number
  }
  recentMessages: MessageLogEntry[]
}

export interface AccountDetail {
  id: string
  username: string
  platform_name: string
  platformDisplayName: string
  userEmail: string
  status: string
  flagReason: string | null
  pausedUntil: string | null
  warmupPhase: number
  warmupStartedAt: string
  trustScore: number
  dailyMessageLimit: number
  /** What the account may send today: warm-up, its limit, the ceiling, a recovering share. */
  allowedToday: number
  messagesSentToday: number
  requestsPending: number
  lastLogin: string | null
  lastSyncedAt: string | null
  lastTestedAt: string | null
  createdAt: string
  campaigns: { id: string; name: string; status: string; messages_sent: number }[]
  recentMessages: MessageLogEntry[]
}

export interface CommandRequest {
  id: string
  name: string
  command: 'restart' | 'stop'
  status: string
}

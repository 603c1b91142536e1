// What the admin function answers for the Platform health tab: site-change incidents, paused platform
// actions, canary runs and their steps, canary accounts, platform packs. The function builds each
// answer with `satisfies` one of these and the tab reads it as the same type.
import type { PackIssue, PackPlatform } from './platform-pack.ts'

/** What a site change can pause on a platform: the runner's operations, as the database names them. */
export const PLATFORM_ACTIONS = ['send', 'inbox', 'scrape', 'session'] as const
export type PlatformAction = (typeof PLATFORM_ACTIONS)[number]

export const CANARY_TRIGGERS = ['schedule', 'try', 'publish', 'manual', 'confirm'] as const
export const CANARY_RUN_STATUSES = ['queued', 'running', 'passed', 'failed', 'error'] as const
export const INCIDENT_STATUSES = ['open', 'resolved'] as const
export const INCIDENT_SOURCES = ['job', 'canary'] as const
export const INCIDENT_RESOLUTIONS = ['canary', 'operator'] as const
export interface PlatformPause {
  platform: PackPlatform
  label: string
  action: PlatformAction
  actionLabel: string
  incidentId: string | null
  pausedAt: string
}

export interface Incident {
  id: string
  platform: PackPlatform
  label: string
  action: PlatformAction
  step: string
  path: string
  status: (typeof INCIDENT_STATUSES)[number]
  sightings: number
  firstSeenAt: string
  lastSeenAt: string
  source: (typeof INCIDENT_SOURCES)[number]
  packVersion: string | null
  autoResume: boolean
  hasOutline: boolean
  resolvedAt: string | null
  resolution: (typeof INCIDENT_RESOLUTIONS)[number] | null
  /** When the evidence paused the action fleet-wide; null while the change is only suspected. */
  pausedAt: string | null
  evidence: SiteChangeEvidence | null
}

/** One account (a job's or the canary's) meeting the page. */
export interface SiteChangeSighting {
  source: 'job' | 'canary'
  accountId: string | null
  username: string | null
  canaryRunId: string | null
  path: string
  seenAt: string
}

/** What paused an incident: two accounts, or the canary after a job, within the window. */
export interface SiteChangeEvidence {
  /** single: paused on one sighting, before evidence was required. */
  reason: 'accounts' | 'canary' | 'single'
  windowMinutes: number | null
  sightings: SiteChangeSighting[]
}

export interface IncidentDetail extends Incident {
  outline: { capturedAt: string; path: string; lines: string[]; truncated: boolean } | null
}

export interface CanaryStepResult {
  step: string
  label: string
  status: 'passed' | 'failed' | 'skipped'
  ms: number
  detail?: string
  kind?: 'layout_changed' | 'stop_signal' | 'timeout' | 'error'
  message?: string
  path?: string
  outlineLines?: number
  incidentId?: string
}

export interface CanaryRun {
  id: string
  platform: PackPlatform
  trigger: (typeof CANARY_TRIGGERS)[number]
  status: (typeof CANARY_RUN_STATUSES)[number]
  accountUsername: string | null
  packVersion: string | null
  steps: CanaryStepResult[]
  error: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  durationMs: number | null
}

export interface CanaryDay {
  day: string
  passed: number
  failed: number
  errors: number
}

export interface PlatformHealth {
  platform: PackPlatform
  label: string
  /** From the newest finished run (queued or running ones say nothing yet); partial: it skipped a step. */
  status: 'healthy' | 'partial' | 'paused' | 'failing' | 'unknown'
  pauses: PlatformPause[]
  lastRun: CanaryRun | null
  recentRuns: CanaryRun[]
  history: CanaryDay[]
  canaryAccounts: number
  pack: { version: string; source: 'code' | 'operator' } | null
}

export interface PlatformHealthOverview {
  platforms: PlatformHealth[]
  incidents: Incident[]
}

export interface PlatformAlerts {
  pauses: PlatformPause[]
  incidents: Incident[]
}

export interface CanaryAccount {
  accountId: string
  username: string
  status: string
  userEmail: string
  operator: boolean
  threadId: string | null
  addedAt: string
  lastRunAt: string | null
}

export interface CanarySettings {
  profileUsername: string | null
  searchQuery: string
  everyMinutes: number
}

export interface CanaryConfig {
  platform: PackPlatform
  label: string
  accounts: CanaryAccount[]
  settings: CanarySettings
}

export interface CanaryCandidate {
  accountId: string
  username: string
  status: string
  userEmail: string
  operator: boolean
  chosen: boolean
}

export type PackFacts = Record<string, unknown>

export interface PlatformPackView {
  platform: PackPlatform
  label: string
  codeDefault: { packId: string; version: string; facts: PackFacts; registeredAt: string } | null
  effective: {
    source: 'code' | 'operator'
    packId: string
    version: string
    facts: PackFacts
    publishedAt: string | null
    publishedBy: string | null
    kind: 'publish' | 'rollback' | null
  } | null
  rollbackTo: { packId: string | null; source: 'code' | 'operator'; version: string | null } | null
  history: {
    id: number
    kind: string
    version: string
    /** The steps its try skipped that the operator confirmed publishing without. */
    unchecked: string[]
    publishedAt: string
    publishedBy: string | null
  }[]
}

export interface PackValidation {
  valid: boolean
  version: string | null
  issues: PackIssue[]
}

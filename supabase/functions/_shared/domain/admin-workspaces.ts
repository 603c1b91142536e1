// The admin tab's Workspaces list and detail: who owns each workspace, its members by role, its plan
// and how many of its plan's accounts it uses.

import type { WorkspaceRoleName } from './workspaces.ts'

export interface AdminWorkspace {
  id: string
  name: string
  /** The first owner's e-mail; null only while a workspace has lost its owner's login. */
  owner_email: string | null
  member_count: number
  /** Members per role; a role nobody holds is left out. */
  roles: Partial<Record<WorkspaceRoleName, number>>
  plan_type: string
  subscription_status: string
  accounts_used: number
  account_limit: number
  created_at: string
}

export interface WorkspaceDetail {
  id: string
  name: string
  personal: boolean
  planType: string
  subscriptionStatus: string
  /** False when its campaigns send nothing for want of a plan. */
  sends: boolean
  stripeCustomerId: string | null
  accountsUsed: number
  accountLimit: number
  createdAt: string
  members: {
    userId: string
    email: string
    fullName: string | null
    role: WorkspaceRoleName
    joinedAt: string
  }[]
}

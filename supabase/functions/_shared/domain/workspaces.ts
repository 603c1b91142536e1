// Workspaces' roles and what each may do (docs/decisions.md, the role matrix), as the web app shows
// and hides things; the database's policies and RPCs enforce the same matrix.
import type { Database } from '../database.ts'

export type WorkspaceRoleName = Database['public']['Enums']['workspace_role']

/** Highest first: the order the members page lists roles in. */
export const WORKSPACE_ROLES = [
  'owner',
  'admin',
  'editor',
  'agent',
  'viewer',
] as const satisfies readonly WorkspaceRoleName[]

/** An invitation makes anyone but an owner; ownership is handed over after they join. */
export const INVITABLE_ROLES = [
  'admin',
  'editor',
  'agent',
  'viewer',
] as const satisfies readonly WorkspaceRoleName[]

export const ROLE_LABELS: Record<WorkspaceRoleName, string> = {
  owner: 'Owner',
  admin: 'Admin',
  editor: 'Editor',
  agent: 'Agent',
  viewer: 'Viewer',
}

export const ROLE_DESCRIPTIONS: Record<WorkspaceRoleName, string> = {
  owner: 'Billing, deleting the workspace and ownership, and everything an admin does',
  admin: 'Members and everything else',
  editor: 'Accounts, scraping, campaigns, automations and the inbox',
  agent: 'The inbox only: read and answer, assign, notes',
  viewer: 'Read-only dashboards and analytics',
}

/** The areas of the product a role can open, and what it may change there. */
export interface RoleAbilities {
  /** Dashboards, analytics, campaigns, leads and accounts, read. */
  readWorkspace: boolean
  /** Accounts, scraping, campaigns, automations, contacts: create, change, launch, delete. */
  editWorkspace: boolean
  inbox: boolean
  manageMembers: boolean
  billing: boolean
  /** Delete the workspace and hand over ownership. */
  ownWorkspace: boolean
}

export function abilitiesOf(role: WorkspaceRoleName | null): RoleAbilities {
  return {
    readWorkspace: role === 'owner' || role === 'admin' || role === 'editor' || role === 'viewer',
    editWorkspace: role === 'owner' || role === 'admin' || role === 'editor',
    inbox: role === 'owner' || role === 'admin' || role === 'editor' || role === 'agent',
    manageMembers: role === 'owner' || role === 'admin',
    billing: role === 'owner',
    ownWorkspace: role === 'owner',
  }
}

/** The spec's words when a role may not do or open something. */
export const ROLE_NOT_ALLOWED = 'Your role in this workspace does not allow this.'

/** POST /workspaces/:id/invitations (and …/resend): the invitation Auth mailed, and its link. */
export interface InvitationSent {
  invitation: { id: string; email: string; expires_at: string }
  link: string
  message: string
}

export interface InviteRequest {
  email: string
  role: (typeof INVITABLE_ROLES)[number]
}

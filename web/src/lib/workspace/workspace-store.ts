// The signed-in person's workspaces (my_workspaces) and which one is active: small client state that
// every page reads for the switcher and for what the person's role lets them see. Loaded once per
// sign-in; after a switch the page reloads (switchWorkspace), so nothing read for the previous
// workspace, in any cache or store, survives on screen.
import type { WorkspaceRoleName } from '@reachflow/domain'
import { create } from 'zustand'
import { supabase } from '../supabase'

export interface WorkspaceSummary {
  id: string
  name: string
  role: WorkspaceRoleName
  isActive: boolean
  memberCount: number
}

interface WorkspaceState {
  workspaces: WorkspaceSummary[]
  status: 'idle' | 'loading' | 'ready' | 'error'
  error: string | null
  /** Whose workspaces these are: a sign-in as someone else loads theirs. */
  userId: string | null
}

export const useWorkspaceStore = create<WorkspaceState>(() => ({
  workspaces: [],
  status: 'idle',
  error: null,
  userId: null,
}))

/** Reads my_workspaces into the store (again when `force`, e.g. after a rename or an invitation accepted). */
export async function loadWorkspaces(userId: string, force = false): Promise<void> {
  const state = useWorkspaceStore.getState()
  if (!force && state.userId === userId && (state.status === 'ready' || state.status === 'loading')) return
  useWorkspaceStore.setState({ status: 'loading', userId, error: null })
  const { data, error } = await supabase.rpc('my_workspaces')
  if (error) {
    console.error('Error loading workspaces', error)
    useWorkspaceStore.setState({ status: 'error', error: error.message })
    return
  }
  useWorkspaceStore.setState({
    status: 'ready',
    workspaces: data.map((w) => ({
      id: w.id,
      name: w.name,
      role: w.role,
      isActive: w.is_active,
      memberCount: w.member_count,
    })),
  })
}

/**
 * Makes another workspace active (remembered on the profile), then reloads the app at `landing`:
 * every query cache, store and open dialog was filled for the previous workspace.
 */
export async function switchWorkspace(workspaceId: string, landing: string): Promise<void> {
  const { error } = await supabase.rpc('set_active_workspace', { p_workspace_id: workspaceId })
  if (error) throw new Error(error.message)
  window.location.assign(landing)
}

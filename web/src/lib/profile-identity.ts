// How the signed-in customer appears in the header and account menu: the name and photo from
// their profile (Settings), not only what the sign-up put in the auth user. One small store, fed by
// the route guard's profile read and by Settings when a photo or name is saved, so every header
// shows the change at once without a reload.
import type { User } from '@supabase/supabase-js'
import { useEffect } from 'react'
import { create } from 'zustand'
import { fetchUserProfile, type UserProfile } from './user-profile'

interface ProfileIdentity {
  userId: string | null
  fullName: string | null
  avatarUrl: string | null
}

const useProfileIdentityStore = create<ProfileIdentity>()(() => ({
  userId: null,
  fullName: null,
  avatarUrl: null,
}))

/** Records what a profile read or save returned for this user. */
export function rememberProfileIdentity(
  userId: string,
  profile: Pick<UserProfile, 'full_name' | 'avatar_url'> | null,
): void {
  if (!profile) return
  useProfileIdentityStore.setState({ userId, fullName: profile.full_name, avatarUrl: profile.avatar_url })
}

/** Changes part of it (Settings saved a photo or a name). */
export function patchProfileIdentity(userId: string, patch: Partial<Omit<ProfileIdentity, 'userId'>>): void {
  const current = useProfileIdentityStore.getState()
  useProfileIdentityStore.setState({
    userId,
    fullName: current.userId === userId ? current.fullName : null,
    avatarUrl: current.userId === userId ? current.avatarUrl : null,
    ...patch,
  })
}

/** The name (profile, else sign-up metadata) and photo to show for the signed-in user. */
export function useProfileIdentity(user: User | null): { name: string | null; avatarUrl: string | null } {
  const identity = useProfileIdentityStore()
  const known = user !== null && identity.userId === user.id
  useEffect(() => {
    if (!user || known) return
    let cancelled = false
    void fetchUserProfile(user.id).then((profile) => {
      if (!cancelled) rememberProfileIdentity(user.id, profile)
    })
    return () => {
      cancelled = true
    }
  }, [user, known])
  const metadataName =
    typeof user?.user_metadata?.full_name === 'string' ? user.user_metadata.full_name : null
  return {
    name: (known && identity.fullName?.trim()) || metadataName,
    avatarUrl: known ? identity.avatarUrl : null,
  }
}

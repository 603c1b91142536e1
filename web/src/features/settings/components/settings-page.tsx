import { ChevronRight, ShieldBan } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { PageHeading } from '@/components/layouts/page-heading'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'
import { useAuth } from '@/lib/auth-store'
import { patchProfileIdentity, rememberProfileIdentity } from '@/lib/profile-identity'
import { fetchUserProfile, type UserProfile } from '@/lib/user-profile'
import { AvatarUpload } from './avatar-upload'
import { ProfileForm } from './profile-form'

export function SettingsPage() {
  const user = useAuth((s) => s.user)
  const [profile, setProfile] = useState<UserProfile | null>(null)
  const [loading, setLoading] = useState(true)

  useEffect(() => {
    if (!user) return
    let cancelled = false
    fetchUserProfile(user.id).then((row) => {
      if (cancelled) return
      rememberProfileIdentity(user.id, row)
      setProfile(row)
      setLoading(false)
    })
    return () => {
      cancelled = true
    }
  }, [user])

  if (!user) return null
  const fullName = profile?.full_name ?? (user.user_metadata?.full_name as string | undefined) ?? ''

  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <PageHeading title="Settings" description="Manage your profile and how you appear in Reachflow." />
      {loading ? (
        <div className="flex justify-center py-20 text-brand-600">
          <Spinner size={32} label="Loading settings" />
        </div>
      ) : (
        <div className="mt-8 space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>Profile photo</CardTitle>
            </CardHeader>
            <CardBody>
              <AvatarUpload
                userId={user.id}
                avatarUrl={profile?.avatar_url ?? null}
                name={fullName}
                email={user.email ?? null}
                onUploaded={(url) => {
                  setProfile((p) => (p ? { ...p, avatar_url: url } : p))
                  patchProfileIdentity(user.id, { avatarUrl: url })
                }}
              />
            </CardBody>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Profile</CardTitle>
            </CardHeader>
            <CardBody>
              <ProfileForm
                userId={user.id}
                email={user.email ?? ''}
                initial={{ full_name: fullName, business_name: profile?.business_name ?? '' }}
                onSaved={(values) => patchProfileIdentity(user.id, { fullName: values.full_name })}
              />
            </CardBody>
          </Card>
          <Card>
            <Link
              to={paths.doNotContact}
              className="flex items-center gap-4 rounded-2xl px-6 py-5 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
            >
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-600">
                <ShieldBan className="size-5" aria-hidden="true" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block text-base font-semibold text-slate-900">Do-not-contact list</span>
                <span className="block text-sm text-slate-600">
                  People your campaigns never message, and the opt-out words that add them.
                </span>
              </span>
              <ChevronRight className="size-5 shrink-0 text-slate-400" aria-hidden="true" />
            </Link>
          </Card>
        </div>
      )}
    </main>
  )
}

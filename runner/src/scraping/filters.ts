// The scraping campaign's filters applied to one profile: the first rule it fails is the reason
// stored with the lead (rejected leads are kept, marked filtered, so counts and reasons show).
import type { ScrapedProfile } from '../platforms/types.ts'

export interface ScrapeFilters {
  min_followers: number
  max_followers: number | null
  verified_only: boolean
  has_bio: boolean
  exclude_business: boolean
}

export const DEFAULT_FILTERS: ScrapeFilters = {
  min_followers: 0,
  max_followers: null,
  verified_only: false,
  has_bio: false,
  exclude_business: false,
}

export function readFilters(value: unknown): ScrapeFilters {
  const f = { ...DEFAULT_FILTERS, ...(value && typeof value === 'object' ? value : {}) } as Record<
    string,
    unknown
  >
  return {
    min_followers: typeof f.min_followers === 'number' ? f.min_followers : 0,
    max_followers: typeof f.max_followers === 'number' ? f.max_followers : null,
    verified_only: f.verified_only === true,
    has_bio: f.has_bio === true,
    exclude_business: f.exclude_business === true,
  }
}

/** Why the filters reject the profile, or null when it is a valid lead. */
export function filterReason(profile: ScrapedProfile, filters: ScrapeFilters): string | null {
  const followers = profile.followers
  if (filters.min_followers > 0 && (followers === null || followers < filters.min_followers))
    return 'Fewer followers than the minimum'
  if (filters.max_followers !== null && followers !== null && followers > filters.max_followers)
    return 'More followers than the maximum'
  if (filters.verified_only && !profile.verified && !profile.blueVerified) return 'Not verified'
  if (filters.has_bio && profile.bio.trim() === '') return 'No bio'
  if (filters.exclude_business && profile.isBusiness) return 'Business account'
  return null
}

/** What a lead row keeps of the profile (the campaign's messages and the lead views read it). */
export function profileData(profile: ScrapedProfile): Record<string, unknown> {
  return {
    platform_id: profile.platformId,
    display_name: profile.name,
    full_name: profile.name,
    bio: profile.bio,
    location: profile.location,
    followers_count: profile.followers,
    following_count: profile.following,
    posts_count: profile.posts,
    verified: profile.verified,
    blue_verified: profile.blueVerified,
    professional_type: profile.professionalType,
    is_business: profile.isBusiness,
    can_dm: profile.canDm,
    protected: profile.protected,
    ...(profile.recentPosts?.length ? { recent_posts: profile.recentPosts } : {}),
  }
}

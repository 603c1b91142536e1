// Reads X's GraphQL timelines (Followers/Following/SearchTimeline): user entries, tweet entries
// (their authors), and the Bottom cursor, whether added as an entry or replaced on later pages.
// Users are read from both the legacy fields and the newer core/privacy/dm_permissions split.
// Pure: no browser or Node dependency.
import type { ScrapedProfile } from '../types.ts'

type Json = Record<string, unknown>

const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {})
const str = (value: unknown): string => (typeof value === 'string' ? value : '')
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null)
const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined)

export function parseXUser(result: unknown): ScrapedProfile | undefined {
  let user = obj(result)
  if (user.__typename === 'UserWithVisibilityResults') user = obj(user.user)
  if (user.__typename !== 'User' || !str(user.rest_id)) return undefined
  const legacy = obj(user.legacy)
  const core = obj(user.core)
  const professional = str(obj(user.professional).professional_type)
  const professionalType = professional === 'Business' || professional === 'Creator' ? professional : null
  const username = str(core.screen_name) || str(legacy.screen_name)
  if (!username) return undefined
  return {
    platformId: str(user.rest_id),
    username,
    name: str(core.name) || str(legacy.name),
    bio: str(legacy.description) || str(obj(user.profile_bio).description),
    location: str(legacy.location) || str(obj(user.location).location),
    followers: num(legacy.followers_count),
    following: num(legacy.friends_count),
    posts: num(legacy.statuses_count),
    verified: bool(legacy.verified) ?? bool(obj(user.verification).verified) ?? false,
    blueVerified: bool(user.is_blue_verified) ?? false,
    professionalType,
    isBusiness: professionalType === 'Business',
    canDm: bool(legacy.can_dm) ?? bool(obj(user.dm_permissions).can_dm) ?? null,
    protected: bool(legacy.protected) ?? bool(obj(user.privacy).protected) ?? false,
  }
}

/** The instructions of whichever timeline the body holds. */
function instructionsOf(body: unknown): Json[] {
  const data = obj(obj(body).data)
  const timeline =
    obj(obj(obj(obj(obj(data.user).result).timeline).timeline)).instructions ??
    obj(obj(obj(obj(data.search_by_raw_query).search_timeline).timeline)).instructions
  return Array.isArray(timeline) ? (timeline as Json[]) : []
}

/** Recent posts kept per profile (the newest first, as the timeline lists them). */
const MAX_RECENT_POSTS = 3

export function parseTimeline(body: unknown): { profiles: ScrapedProfile[]; bottomCursor: string | null } {
  const profiles = new Map<string, ScrapedProfile>()
  let bottomCursor: string | null = null
  const visit = (entry: Json) => {
    const content = obj(entry.content)
    if (content.cursorType === 'Bottom') {
      bottomCursor = str(content.value) || bottomCursor
      return
    }
    const item = obj(content.itemContent)
    // a tweet may come wrapped as TweetWithVisibilityResults { tweet: {...} }
    const tweetResult = obj(obj(item.tweet_results).result)
    const tweet =
      tweetResult.__typename === 'TweetWithVisibilityResults' ? obj(tweetResult.tweet) : tweetResult
    const author = obj(item.user_results).result ?? obj(obj(tweet.core).user_results).result
    const profile = parseXUser(author)
    if (profile && !profiles.has(profile.platformId)) profiles.set(profile.platformId, profile)
    // a post found by hashtag is one of the author's recent posts (AI personalisation reads them)
    const text = str(obj(tweet.legacy).full_text).trim()
    const known = profile && profiles.get(profile.platformId)
    if (known && text) {
      known.recentPosts ??= []
      if (known.recentPosts.length < MAX_RECENT_POSTS && !known.recentPosts.includes(text))
        known.recentPosts.push(text.slice(0, 280))
    }
  }
  for (const instruction of instructionsOf(body)) {
    if (instruction.type === 'TimelineAddEntries' && Array.isArray(instruction.entries)) {
      for (const entry of instruction.entries as Json[]) visit(entry)
    }
    if (instruction.type === 'TimelineReplaceEntry') visit(obj(instruction.entry))
  }
  return { profiles: [...profiles.values()], bottomCursor }
}

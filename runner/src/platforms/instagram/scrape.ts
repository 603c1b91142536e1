// Scraping Instagram leads through the web app's JSON: followers/following pages (max_id →
// next_max_id) and hashtag sections (next_max_id while more_available), each author enriched
// with web_profile_info (follower counts, bio, business) so filters can apply.
import { fillPath, regexOf } from '../facts.ts'
import { type ScrapedProfile, type ScrapePage, type ScrapeRequest, StopSignalError } from '../types.ts'
import type { IgPageContext } from './context.ts'
import { type IgAnswer, igFetchInPage } from './page-api.ts'
import { igSignalFromResponse } from './signals.ts'

type Json = Record<string, unknown>
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {})
const count = (value: unknown): number | null => {
  const n = obj(value).count
  return typeof n === 'number' ? n : null
}

export function profileFromInfo(info: unknown): ScrapedProfile | undefined {
  const u = obj(info)
  if (!u.id || typeof u.username !== 'string') return undefined
  const professionalType =
    u.is_business_account === true ? 'Business' : u.is_professional_account === true ? 'Creator' : null
  return {
    platformId: String(u.id),
    username: u.username,
    name: String(u.full_name ?? ''),
    bio: String(u.biography ?? ''),
    location: '',
    followers: count(u.edge_followed_by),
    following: count(u.edge_follow),
    posts: count(u.edge_owner_to_timeline_media),
    verified: u.is_verified === true,
    blueVerified: false,
    professionalType,
    isBusiness: professionalType === 'Business',
    canDm: null,
    protected: u.is_private === true,
  }
}

/** A listing entry without the profile details (used when enrichment is off). */
function profileFromListing(user: Json): ScrapedProfile {
  return {
    platformId: String(user.pk ?? user.id ?? ''),
    username: String(user.username ?? ''),
    name: String(user.full_name ?? ''),
    bio: '',
    location: '',
    followers: null,
    following: null,
    posts: null,
    verified: user.is_verified === true,
    blueVerified: false,
    professionalType: null,
    isBusiness: false,
    canDm: null,
    protected: user.is_private === true,
  }
}

export async function scrapeInstagram(
  session: IgPageContext,
  request: ScrapeRequest & { enrich?: boolean },
): Promise<ScrapePage> {
  const value = request.value.trim().replace(/^[@#]/, '')
  if (!value) throw new Error('Nothing to scrape: the source value is empty.')
  if (request.source === 'keyword')
    throw new Error('Instagram keyword search is not supported: use followers, following or hashtag.')
  return session.run(`scrape ${request.source}`, session.timeouts.operationMs * 3, async (page) => {
    const { api, paths, texts } = session.facts
    if (new URL(page.url()).origin !== new URL(session.baseUrl).origin) await session.goto(page, paths.home)
    session.assertSignedIn(page)
    const call = async (path: string, form?: Record<string, string>): Promise<IgAnswer> => {
      const answer = await igFetchInPage(session.facts, page, path, form)
      const signal = igSignalFromResponse(session.facts, answer.status, answer.body)
      if (signal) throw new StopSignalError(signal)
      if (answer.status === 400 && regexOf(texts.privateList).test(String(obj(answer.body).message ?? '')))
        throw new Error(`Instagram @${value} is private: its lists cannot be read.`)
      if (answer.status !== 200)
        throw new Error(
          `Instagram ${path.split('?')[0]} answered HTTP ${answer.status}: ${String(obj(answer.body).message ?? '')}`,
        )
      return answer
    }
    const info = async (username: string) =>
      obj(obj((await call(fillPath(api.profileInfo, { username }))).body).data).user
    const cursor = request.cursor ?? undefined
    let users: Json[]
    let nextCursor: string | null
    if (request.source === 'followers' || request.source === 'following') {
      const owner = profileFromInfo(await info(value))
      if (!owner) throw new Error(`Instagram has no user @${value}`)
      const listing = fillPath(api[request.source], {
        id: owner.platformId,
        count: String(session.facts.followersPageSize),
      })
      const from = cursor ? `${listing}&${api.cursorParam}=${encodeURIComponent(cursor)}` : listing
      const body = obj((await call(from)).body)
      users = Array.isArray(body.users) ? (body.users as Json[]) : []
      nextCursor =
        typeof body.next_max_id === 'string' && body.next_max_id !== cursor ? body.next_max_id : null
    } else {
      const form: Record<string, string> = { tab: 'recent', surface: 'grid', include_persistent: '0' }
      if (cursor) form[api.cursorParam] = cursor
      const body = obj((await call(fillPath(api.tagSections, { tag: value.toLowerCase() }), form)).body)
      const sections = Array.isArray(body.sections) ? (body.sections as Json[]) : []
      users = sections.flatMap((s) => {
        const medias = obj(s.layout_content).medias
        return Array.isArray(medias) ? medias.map((m) => obj(obj(obj(m).media).user)) : []
      })
      nextCursor =
        body.more_available === true && typeof body.next_max_id === 'string' && body.next_max_id !== cursor
          ? body.next_max_id
          : null
    }
    const unique = [
      ...new Map(users.filter((u) => u.username).map((u) => [String(u.pk ?? u.username), u])).values(),
    ]
    const profiles: ScrapedProfile[] = []
    for (const user of unique) {
      const detailed =
        request.enrich === false ? undefined : profileFromInfo(await info(String(user.username)))
      profiles.push(detailed ?? profileFromListing(user))
    }
    return { profiles, nextCursor: profiles.length === 0 ? null : nextCursor }
  })
}

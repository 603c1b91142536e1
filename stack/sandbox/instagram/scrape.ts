// Instagram listings the runner scrapes: web_profile_info (counts, bio, business), followers and
// following pages (count + max_id → next_max_id), hashtag sections (next_max_id until
// more_available is false), all with the sandbox's per-account request limit (429 when spent).
import type { ServerResponse } from 'node:http'
import {
  escapeHtml as e,
  HttpError,
  type Request,
  type Router,
  sendJson,
  stringField,
} from '../social/http.ts'
import type { Messaging } from '../social/messaging.ts'
import type { Profile } from '../social/population.ts'
import type { OwnAccount } from '../social/state.ts'
import { apiAccount, pleaseWait, sessionAccount } from './accounts.ts'
import { igUser } from './direct.ts'
import { igNav, igPage, sendIgPage } from './layout.ts'

const SECTION_SIZE = 3
const SECTIONS_PER_PAGE = 4

function profileInfo(person: Profile | OwnAccount) {
  const p = 'followers' in person ? person : undefined
  return {
    ...igUser(person),
    biography: p?.bio ?? '',
    edge_followed_by: { count: p?.followers ?? 0 },
    edge_follow: { count: p?.following ?? 0 },
    edge_owner_to_timeline_media: { count: p?.posts ?? 0 },
    is_business_account: p?.professional === 'Business',
    is_professional_account: p?.professional != null,
    category_name:
      p?.professional === 'Business'
        ? 'Shopping & retail'
        : p?.professional === 'Creator'
          ? 'Digital creator'
          : null,
    is_verified: p ? p.verified || p.blueVerified : false,
  }
}

function countRequest(messaging: Messaging, account: OwnAccount): void {
  if (!messaging.scrapeAllowance(account).allowed) throw pleaseWait()
}

function encodeMaxId(offset: number, key: string): string {
  return `QVFB${Buffer.from(`${offset}|${key}`).toString('base64url')}`
}

function decodeMaxId(raw: string | null | undefined, key: string): number {
  if (!raw) return 0
  const [offset, rawKey] = Buffer.from(raw.slice(4), 'base64url').toString().split('|')
  if (!raw.startsWith('QVFB') || rawKey !== key || !/^\d+$/.test(offset ?? ''))
    throw new HttpError(400, 'Invalid max_id', { message: 'Invalid max_id', status: 'fail' })
  return Number(offset)
}

export function registerIgScrape(router: Router, messaging: Messaging): void {
  const world = messaging.world
  const population = messaging.population
  const find = (username: string) => population.byUsername(username) ?? world.accountByUsername(username)

  router.on('GET', '/api/v1/users/web_profile_info/', (req, res) => {
    apiAccount(world, req)
    const person = find(req.url.searchParams.get('username') ?? '')
    if (!person) return sendJson(res, 404, { data: { user: null }, status: 'ok' })
    sendJson(res, 200, { data: { user: profileInfo(person) }, status: 'ok' })
  })

  const friendships = (kind: 'followers' | 'following') => (req: Request, res: ServerResponse) => {
    const account = apiAccount(world, req)
    const person = population.byId(req.params.id ?? '')
    if (!person) throw new HttpError(404, 'User not found', { message: 'User not found', status: 'fail' })
    if (person.protected)
      throw new HttpError(400, 'Not authorized to view user', {
        message: 'Not authorized to view user',
        status: 'fail',
      })
    countRequest(messaging, account)
    const count = Math.max(1, Math.min(50, Number(req.url.searchParams.get('count') ?? 12) || 12))
    const key = `${kind}:${person.id}`
    const offset = decodeMaxId(req.url.searchParams.get('max_id'), key)
    const users = population.listOf(person, kind, offset, count)
    const next = offset + users.length
    sendJson(res, 200, {
      users: users.map(igUser),
      big_list: population.listLength(person, kind) > next,
      page_size: count,
      ...(next < population.listLength(person, kind) ? { next_max_id: encodeMaxId(next, key) } : {}),
      status: 'ok',
    })
  }
  router.on('GET', '/api/v1/friendships/:id/followers/', friendships('followers'))
  router.on('GET', '/api/v1/friendships/:id/following/', friendships('following'))

  const sections = (tag: string, offset: number) => {
    const authors = population.withTopic(tag)
    const pageSize = SECTION_SIZE * SECTIONS_PER_PAGE
    const slice = authors.slice(offset, offset + pageSize)
    const next = offset + slice.length
    const list = []
    for (let i = 0; i < slice.length; i += SECTION_SIZE) {
      list.push({
        layout_type: 'media_grid',
        feed_type: 'media',
        layout_content: {
          medias: slice.slice(i, i + SECTION_SIZE).map((author, j) => {
            const pk = `31${String(offset + i + j).padStart(9, '0')}${author.index}`
            return {
              media: {
                pk,
                id: `${pk}_${author.id}`,
                code: Buffer.from(pk).toString('base64url').slice(0, 11),
                taken_at: Math.floor(world.now() / 1000) - (offset + i + j) * 600,
                user: igUser(author),
                caption: { text: `${author.bio || 'New post'} #${tag}` },
              },
            }
          }),
        },
      })
    }
    const more = next < authors.length
    return {
      sections: list,
      more_available: more,
      next_max_id: more ? encodeMaxId(next, `tag:${tag}`) : null,
      next_page: Math.floor(next / pageSize),
      status: 'ok',
    }
  }

  router.on('GET', '/api/v1/tags/web_info/', (req, res) => {
    const account = apiAccount(world, req)
    const tag = (req.url.searchParams.get('tag_name') ?? '').toLowerCase()
    if (!/^\w+$/.test(tag))
      throw new HttpError(400, 'tag_name is required', { message: 'tag_name is required', status: 'fail' })
    countRequest(messaging, account)
    const recent = sections(tag, 0)
    sendJson(res, 200, {
      data: { name: tag, media_count: population.withTopic(tag).length * 7, top: recent, recent },
      status: 'ok',
    })
  })

  router.on('POST', '/api/v1/tags/:tag/sections/', (req, res) => {
    const account = apiAccount(world, req)
    const tag = (req.params.tag ?? '').toLowerCase()
    if (!/^\w+$/.test(tag))
      throw new HttpError(400, 'Invalid tag', { message: 'Invalid tag', status: 'fail' })
    countRequest(messaging, account)
    sendJson(res, 200, sections(tag, decodeMaxId(stringField(req.body, 'max_id', false), `tag:${tag}`)))
  })

  router.on('GET', '/:username/', (req, res) => {
    const viewer = sessionAccount(world, req)
    const person = find(req.params.username ?? '')
    const nav = viewer ? igNav(viewer) : ''
    if (!person)
      return sendIgPage(
        req,
        res,
        404,
        igPage('Page not found • Instagram', `${nav}<main><h2>Sorry, this page isn't available.</h2></main>`),
      )
    const info = profileInfo(person)
    const body = `${nav}<main><header><h2>${e(person.username)}</h2><span>${e(person.name)}</span>
<ul><li>${info.edge_owner_to_timeline_media.count} posts</li><li>${info.edge_followed_by.count} followers</li><li>${info.edge_follow.count} following</li></ul>
<p>${e(info.biography)}</p><div role="button" tabindex="0">Message</div></header></main>`
    sendIgPage(req, res, 200, igPage(`${person.name} (@${person.username}) • Instagram`, body))
  })
}

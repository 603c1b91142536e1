// The `/__sandbox/*` admin API both social sandboxes share: health, the clock, behaviour settings,
// "our" accounts, the delivery log, faults on demand, forced replies and profile look-ups.
// Tests and the demo use it; the runner never does.
import type { ServerResponse } from 'node:http'
import { HttpError, type Request, type Router, sendJson, stringField } from './http.ts'
import type { Messaging } from './messaging.ts'
import type { NamedProfile, Profile } from './population.ts'
import {
  type AccountState,
  type BehaviourConfig,
  DEFAULT_BEHAVIOUR,
  type Fault,
  type OwnAccount,
} from './state.ts'

export interface PlatformAdmin {
  name: 'x' | 'instagram'
  messaging: Messaging
  /** Creates one of "our" accounts from the request body; `extra` joins the answer (e.g. session cookies). */
  createAccount(body: Record<string, unknown>): { account: OwnAccount; extra?: Record<string, unknown> }
  /** The account as the admin API shows it (with its cookies or password and TOTP secret). */
  describeAccount(account: OwnAccount): Record<string, unknown>
  /** The profile as the admin API shows it. */
  describeProfile(profile: Profile): Record<string, unknown>
  /** Whether a username is one the platform allows. */
  validUsername(username: string): boolean
}

const FAULT_TARGETS = ['send', 'page', 'api'] as const
const FAULT_MODES = [
  'error',
  'ack_lost',
  'dropped',
  'delayed',
  'error_after_delivery',
  'http_500',
  'hang',
] as const
const STATES: AccountState[] = ['active', 'locked', 'expired']

export function registerAdminRoutes(router: Router, admin: PlatformAdmin): void {
  const { messaging } = admin
  const world = messaging.world
  const population = messaging.population
  const account = (username: string | undefined): OwnAccount => {
    const found = username ? world.accountByUsername(username) : undefined
    if (!found) throw new HttpError(404, `No sandbox account "${username ?? ''}"`)
    return found
  }

  router.on('GET', '/__sandbox/health', (_req, res) =>
    sendJson(res, 200, { ok: true, platform: admin.name, profiles: population.profiles.length }),
  )

  router.on('GET', '/__sandbox/clock', (_req, res) => sendClock(res))
  router.on('POST', '/__sandbox/clock', (req, res) => {
    const offset = numberField(req.body, 'offsetMs')
    const advance = numberField(req.body, 'advanceMs')
    if (offset === undefined && advance === undefined) throw new HttpError(400, 'Give offsetMs or advanceMs')
    if (offset !== undefined) world.clock.setOffset(offset)
    if (advance !== undefined) world.clock.advance(advance)
    messaging.deliverDueReplies()
    world.changed()
    sendClock(res)
  })
  function sendClock(res: ServerResponse): void {
    sendJson(res, 200, { now: world.now(), offsetMs: world.clock.offsetMs })
  }

  router.on('GET', '/__sandbox/config', (_req, res) => sendJson(res, 200, world.behaviour))
  router.on('PATCH', '/__sandbox/config', (req, res) => {
    world.behaviour = { ...world.behaviour, ...behaviourPatch(req.body) }
    world.changed()
    sendJson(res, 200, world.behaviour)
  })

  router.on('POST', '/__sandbox/accounts', (req, res) => {
    const { account: created, extra } = admin.createAccount(req.body)
    if (req.body.behaviour !== undefined)
      created.behaviour = behaviourPatch(objectField(req.body, 'behaviour'))
    world.changed()
    sendJson(res, 201, { ...admin.describeAccount(created), ...extra })
  })
  router.on('GET', '/__sandbox/accounts/:username', (req, res) =>
    sendJson(res, 200, admin.describeAccount(account(req.params.username))),
  )
  router.on('PATCH', '/__sandbox/accounts/:username', (req, res) => {
    const target = account(req.params.username)
    const body = req.body
    if (body.state !== undefined) {
      if (!STATES.includes(body.state as AccountState))
        throw new HttpError(400, `"state" must be one of ${STATES}`)
      target.state = body.state as AccountState
    }
    if (body.blueVerified !== undefined) target.blueVerified = body.blueVerified === true
    if (body.behaviour !== undefined) {
      target.behaviour = { ...target.behaviour, ...behaviourPatch(objectField(body, 'behaviour')) }
    }
    if (body.unblock === true) target.blockedUntil = 0
    if (body.chatLocked !== undefined) target.chatLocked = body.chatLocked === true
    if (body.chatLocked === false) target.passcodeFailures = 0
    if (body.passcode !== undefined) target.passcode = stringField(body, 'passcode')
    if (body.challenge !== undefined) {
      if (!['never', 'next', 'always'].includes(String(body.challenge)))
        throw new HttpError(400, '"challenge" must be never, next or always')
      target.challenge = body.challenge as OwnAccount['challenge']
    }
    world.changed()
    sendJson(res, 200, admin.describeAccount(target))
  })

  router.on('GET', '/__sandbox/deliveries', (req, res) => {
    const who = req.url.searchParams.get('account')
    const thread = req.url.searchParams.get('thread')
    const list = world.deliveries.filter(
      (d) => (!who || d.account.toLowerCase() === who.toLowerCase()) && (!thread || d.threadId === thread),
    )
    sendJson(res, 200, { deliveries: list, count: list.length })
  })
  router.on('DELETE', '/__sandbox/deliveries', (req, res) => {
    const who = req.url.searchParams.get('account')
    const before = world.deliveries.length
    world.deliveries = who
      ? world.deliveries.filter((d) => d.account.toLowerCase() !== who.toLowerCase())
      : []
    world.changed()
    sendJson(res, 200, { removed: before - world.deliveries.length })
  })

  router.on('GET', '/__sandbox/threads', (req, res) => {
    const owner = account(req.url.searchParams.get('account') ?? undefined)
    messaging.deliverDueReplies()
    const threads = world.threadsOf(owner.id).map((t) => ({
      id: t.id,
      peer: messaging.person(t.peerId)?.username ?? t.peerId,
      peerId: t.peerId,
      startedByPeer: t.startedByPeer,
      pendingReply: t.pendingReply ?? null,
      messages: t.messages.map((m) => ({ ...m, fromAccount: m.senderId === owner.id })),
    }))
    sendJson(res, 200, { threads })
  })

  // the account's owner reads a conversation on the platform itself (another device), before we do
  router.on('POST', '/__sandbox/threads/read', (req, res) => {
    const owner = account(stringField(req.body, 'account'))
    const thread = world.threads.get(stringField(req.body, 'threadId') ?? '')
    if (thread?.accountId !== owner.id) throw new HttpError(404, 'No such thread of this account')
    messaging.deliverDueReplies()
    thread.readAt = world.now()
    world.changed()
    sendJson(res, 200, { threadId: thread.id, readAt: thread.readAt })
  })

  router.on('POST', '/__sandbox/faults', (req, res) => {
    const target = stringField(req.body, 'target') as Fault['target']
    const mode = stringField(req.body, 'mode') as Fault['mode']
    if (!FAULT_TARGETS.includes(target)) throw new HttpError(400, `"target" must be one of ${FAULT_TARGETS}`)
    if (!FAULT_MODES.includes(mode)) throw new HttpError(400, `"mode" must be one of ${FAULT_MODES}`)
    const fault: Fault = {
      account: stringField(req.body, 'account', false),
      target,
      mode,
      code: numberField(req.body, 'code'),
      path: stringField(req.body, 'path', false),
      delayMs: numberField(req.body, 'delayMs'),
      remaining: numberField(req.body, 'count') ?? 1,
    }
    if (fault.account) account(fault.account)
    world.faults.push(fault)
    sendJson(res, 201, fault)
  })
  router.on('DELETE', '/__sandbox/faults', (req, res) => {
    const who = req.url.searchParams.get('account')
    world.faults = who ? world.faults.filter((f) => f.account?.toLowerCase() !== who.toLowerCase()) : []
    sendJson(res, 200, { faults: world.faults })
  })

  // A reply (delayMs from now) or a first message from a peer to one of our accounts.
  router.on('POST', '/__sandbox/messages', (req, res) => {
    const owner = account(stringField(req.body, 'account'))
    const peer = population.byUsername(stringField(req.body, 'from') ?? '')
    if (!peer) throw new HttpError(404, 'No such profile in "from"')
    const text = stringField(req.body, 'text') ?? ''
    const delayMs = numberField(req.body, 'delayMs') ?? 0
    const existing = messaging.existingThread(owner, peer.id)
    const thread = messaging.openThread(owner, peer.id, !existing || existing.messages.length === 0)
    thread.replyDecided = true
    if (delayMs > 0) messaging.scheduleReply(thread, text, world.now() + delayMs)
    else messaging.receive(thread, text)
    sendJson(res, 201, { threadId: thread.id })
  })

  router.on('GET', '/__sandbox/profiles', (req, res) => {
    sendJson(res, 200, { profiles: findProfiles(messaging, req).map(admin.describeProfile) })
  })

  // people by name, e.g. the demo's seeded leads: {profiles: [{username, name?, bio?, followers?}]}
  router.on('POST', '/__sandbox/profiles', (req, res) => {
    const list = (req.body as { profiles?: unknown }).profiles
    if (!Array.isArray(list) || list.length > 5000)
      throw new HttpError(
        400,
        '"profiles" must be a list of at most 5000 {username, name?, bio?, followers?}',
      )
    const added: Profile[] = []
    for (const item of list as Record<string, unknown>[]) {
      const username = typeof item?.username === 'string' ? item.username.replace(/^@/, '') : ''
      if (!admin.validUsername(username))
        throw new HttpError(400, `"${username}" is not a valid username here`)
      const known = population.byUsername(username)
      if (known) {
        added.push(known)
        continue
      }
      const spec: NamedProfile = { username }
      if (typeof item.name === 'string') spec.name = item.name.slice(0, 50)
      if (typeof item.bio === 'string') spec.bio = item.bio.slice(0, 160)
      if (typeof item.followers === 'number' && Number.isFinite(item.followers))
        spec.followers = Math.max(0, Math.floor(item.followers))
      added.push(population.addNamed(spec))
      world.namedProfiles.push(spec)
    }
    world.changed()
    sendJson(res, 200, { profiles: added.map(admin.describeProfile) })
  })

  router.on('POST', '/__sandbox/reset', (req, res) => {
    const who = stringField(req.body, 'account', false)
    if (who) {
      const owner = account(who)
      for (const thread of world.threadsOf(owner.id)) world.threads.delete(thread.id)
      world.deliveries = world.deliveries.filter((d) => d.accountId !== owner.id)
      world.faults = world.faults.filter((f) => f.account?.toLowerCase() !== who.toLowerCase())
      Object.assign(owner, { sendTimes: [], sentTexts: [], scrapeTimes: [], blockedUntil: 0, loginTimes: [] })
    } else {
      world.faults = []
      world.behaviour = { ...DEFAULT_BEHAVIOUR }
      world.clock.setOffset(0)
    }
    world.changed()
    sendJson(res, 200, { ok: true })
  })
}

/** Profiles matching simple filters: ?canDm=false&verifiedOnlyRequests=true&topic=saas&limit=5 … */
function findProfiles(messaging: Messaging, req: Request): Profile[] {
  const q = req.url.searchParams
  const username = q.get('username')
  if (username) {
    const one = messaging.population.byUsername(username)
    return one ? [one] : []
  }
  const flag = (name: keyof Profile) => {
    const value = q.get(name)
    return value === null ? undefined : value === 'true'
  }
  const filters: [keyof Profile, boolean | undefined][] = (
    ['canDm', 'verifiedOnlyRequests', 'protected', 'verified', 'blueVerified'] as const
  ).map((name) => [name, flag(name)])
  const topic = q.get('topic')
  const professional = q.get('professional')
  const minFollowers = Number(q.get('minFollowers') ?? 0)
  const limit = Math.min(Number(q.get('limit') ?? 10), 500)
  const offset = Number(q.get('offset') ?? 0)
  return messaging.population.profiles
    .filter(
      (p) =>
        filters.every(([name, want]) => want === undefined || p[name] === want) &&
        (!topic || p.topics.includes(topic)) &&
        (!professional || String(p.professional) === professional) &&
        p.followers >= minFollowers,
    )
    .slice(offset, offset + limit)
}

function numberField(body: Record<string, unknown>, name: string): number | undefined {
  const value = body[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new HttpError(400, `"${name}" must be a number`)
  return value
}

function objectField(body: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = body[name]
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, `"${name}" must be an object`)
  return value as Record<string, unknown>
}

function behaviourPatch(body: Record<string, unknown>): Partial<BehaviourConfig> {
  const patch: Partial<BehaviourConfig> = {}
  for (const key of Object.keys(body) as (keyof BehaviourConfig)[]) {
    if (!(key in DEFAULT_BEHAVIOUR)) throw new HttpError(400, `Unknown behaviour setting "${key}"`)
    const value = body[key]
    if (key === 'replyDelayMs') {
      if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === 'number' && v >= 0))
        throw new HttpError(400, '"replyDelayMs" must be [min, max] in ms')
      patch.replyDelayMs = [value[0], value[1]]
    } else {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        throw new HttpError(400, `"${key}" must be a number ≥ 0`)
      patch[key] = value
    }
  }
  return patch
}

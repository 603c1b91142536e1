// A stand-in for an OpenAI-compatible chat-completions endpoint, so AI writing
// works offline and in tests. It is marked as a sandbox everywhere it can be: the only model is
// `reachflow-sandbox`, every response carries `X-Reachflow-Sandbox: ai`, and its texts are built
// from the prompt by fixed rules (no model, no randomness): the same prompt gets the same answer.
//
// Our prompts (supabase/functions/_shared/ai.ts) name their task on the system message's first line
// (`Task: draft_messages | personalize_message | score_lead`) and send their inputs as JSON in the
// user message, in an <input> block and, for a lead's profile, an <untrusted_data> block; the
// sandbox reads both and answers each task in the format the prompt asks for. Like a model that
// does not resist injected text, it quotes a lead's bio or post as written: what our checks on the
// answer must catch.
//
// Failure modes for tests (`POST /__sandbox/faults`): `hang` (never answers; the client's timeout
// must fire), `429` (with Retry-After), `500`, `non_json` (a 200 whose body is not JSON),
// `empty_choices`, `over_long` (a text longer than any cap), `bad_content` (content that is not
// what the prompt asked for). A fault applies to the next `times` requests whose body contains
// `match` (any request when empty), so parallel work of other tests is not hit.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

export const SANDBOX_MODEL = 'reachflow-sandbox'
/** The only key the sandbox accepts (stack/src/functions-env.ts hands it to the functions and runner). */
export const SANDBOX_API_KEY = 'sk-reachflow-sandbox-local'

export const FAULT_MODES = [
  'hang',
  '429',
  '500',
  'non_json',
  'empty_choices',
  'over_long',
  'bad_content',
] as const
export type FaultMode = (typeof FAULT_MODES)[number]

interface Fault {
  id: number
  mode: FaultMode
  match: string
  remaining: number
  retryAfter: number
}

interface Recorded {
  at: string
  task: string
  status: number
  fault: FaultMode | null
  body: string
}

const STOP_WORDS = new Set(
  `a an the and or of to in on for with who that this is are be at by from as it its into our your their
  people person someone anyone about like want wants need needs looking ideal customer customers client clients`
    .split(/\s+/)
    .filter(Boolean),
)

/** Roughly one token per four characters, as OpenAI's rule of thumb says. */
export const tokensOf = (text: string) => Math.max(1, Math.ceil(text.length / 4))

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))

/** 0-100: the share of the description's keywords that the bio mentions (a keyword's stem counts). */
export function sandboxScore(idealCustomer: string, bio: string): { score: number; reason: string } {
  const keywords = [...new Set(words(idealCustomer))]
  const bioWords = words(bio)
  if (keywords.length === 0) return { score: 0, reason: 'The description has no keywords to match.' }
  if (bioWords.length === 0) return { score: 0, reason: 'The profile has no bio to match.' }
  const stem = (w: string) => w.slice(0, Math.max(4, w.length - 2))
  const matched = keywords.filter((k) => bioWords.some((w) => w.startsWith(stem(k)) || k.startsWith(stem(w))))
  const score = Math.round((100 * matched.length) / keywords.length)
  return {
    score,
    reason: matched.length
      ? `Bio mentions ${matched.join(', ')} (${matched.length} of ${keywords.length} keywords).`
      : `Bio mentions none of: ${keywords.slice(0, 5).join(', ')}.`,
  }
}

const firstName = (name: unknown, fallback: string) => {
  const first = typeof name === 'string' ? name.trim().split(/\s+/)[0] : ''
  return first && /\p{L}/u.test(first) ? first : fallback
}

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`

type Json = Record<string, unknown>
const str = (v: unknown) => (typeof v === 'string' ? v : '')

/** The deterministic answer to one of our prompts; null when the prompt is not one of ours. */
export function answer(task: string, input: Json): string | null {
  if (task === 'draft_messages') {
    const goal = str(input.goal)
      .trim()
      .replace(/[.!?]+$/, '')
    const offer = str(input.offer)
      .trim()
      .replace(/[.!?]+$/, '')
    const variants = Math.min(Math.max(Number(input.variants) || 1, 1), 5)
    const followUps = Math.min(Math.max(Number(input.followUps) || 0, 0), 5)
    const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)
    const openers = [
      `Hi {name}, I help people like you with ${lower(offer)}. ${goal} - open to a quick chat?`,
      `Hey {name}! Quick one: ${lower(offer)}. Could that help with ${lower(goal)}?`,
      `{name}, saw your profile and thought of ${lower(offer)}. Worth a short chat about ${lower(goal)}?`,
      `Hi {name} - we do ${lower(offer)}. Happy to share how it helps with ${lower(goal)}.`,
      `Hello {name}, ${lower(offer)} might fit you. Interested in ${lower(goal)}?`,
    ]
    const nudges = [
      `Hi {name}, just bumping this in case it got buried. Still keen to tell you about ${lower(offer)}.`,
      `{name}, last note from me: if ${lower(goal)} matters this quarter, I'm one message away.`,
      `Hey {name}, no pressure at all - should I close the loop on this?`,
      `{name}, one more idea on ${lower(offer)} if useful.`,
      `Hi {name}, happy to send a 2-line summary instead?`,
    ]
    return JSON.stringify({ messages: openers.slice(0, variants), followUps: nudges.slice(0, followUps) })
  }
  if (task === 'personalize_message') {
    const lead = (input.lead ?? {}) as Json
    const template = str(input.template)
    const name = firstName(lead.name, str(lead.username))
    const bio = str(lead.bio).trim()
    const posts = Array.isArray(lead.recentPosts) ? lead.recentPosts.map(str).filter(Boolean) : []
    const filled = template
      .replace(/\{name\}/gi, name)
      .replace(/\{username\}/gi, str(lead.username))
      .replace(/^(hi|hey|hello)\s+[^,!]+[,!]\s*/i, '')
    const hook = posts[0]
      ? `your post "${clip(posts[0], 60)}" stuck with me`
      : bio
        ? `your bio ("${clip(bio, 60)}") caught my eye`
        : 'your profile caught my eye'
    const rest = filled.charAt(0).toUpperCase() + filled.slice(1)
    return `Hi ${name}, ${hook}. ${rest}`.trim()
  }
  if (task === 'score_lead') {
    const lead = (input.lead ?? {}) as Json
    return JSON.stringify(sandboxScore(str(input.idealCustomer), str(lead.bio)))
  }
  return null
}

/** The <input> and <untrusted_data> blocks of a user message as one object ({} when not ours). */
export function promptInput(user: string): Json {
  const block = (name: string): Json => {
    const text = new RegExp(`<${name}>\\n([\\s\\S]*?)\\n</${name}>`).exec(user)?.[1]
    if (!text) return {}
    try {
      const value = JSON.parse(text) as unknown
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
    } catch {
      return {}
    }
  }
  return { ...block('input'), ...block('untrusted_data') }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > 1024 * 1024) {
        reject(new Error('body too large'))
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

const BASE_HEADERS = { 'X-Reachflow-Sandbox': 'ai', 'Cache-Control': 'no-store' }

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': 'application/json; charset=utf-8', ...headers })
  res.end(JSON.stringify(body))
}

const apiError = (message: string, type: string, code: string | null = null) => ({
  error: { message, type, param: null, code },
})

export function createAiSandbox() {
  let faults: Fault[] = []
  let nextFaultId = 1
  const log: Recorded[] = []
  const hanging = new Set<ServerResponse>()

  const takeFault = (body: string): Fault | undefined => {
    const fault = faults.find((f) => f.remaining > 0 && (f.match === '' || body.includes(f.match)))
    if (fault) {
      fault.remaining--
      faults = faults.filter((f) => f.remaining > 0)
    }
    return fault
  }

  const record = (entry: Omit<Recorded, 'at'>) => {
    log.push({ at: new Date().toISOString(), ...entry, body: entry.body.slice(0, 2000) })
    if (log.length > 500) log.splice(0, 100)
  }

  const completions = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${SANDBOX_API_KEY}`) {
      return send(
        res,
        401,
        apiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
      )
    }
    const raw = await readBody(req)
    let request: Json
    try {
      request = JSON.parse(raw) as Json
    } catch {
      return send(
        res,
        400,
        apiError('We could not parse the JSON body of your request.', 'invalid_request_error'),
      )
    }
    if (request.model !== SANDBOX_MODEL) {
      return send(
        res,
        404,
        apiError(
          `The model \`${str(request.model)}\` does not exist.`,
          'invalid_request_error',
          'model_not_found',
        ),
      )
    }
    const messages = Array.isArray(request.messages) ? (request.messages as Json[]) : []
    const system = str(messages.find((m) => m.role === 'system')?.content)
    const user = str(messages.findLast((m) => m.role === 'user')?.content)
    const task = /^Task: (\w+)/.exec(system)?.[1] ?? 'unknown'
    const fault = takeFault(raw)
    if (fault) record({ task, status: fault.mode === 'hang' ? 0 : 200, fault: fault.mode, body: raw })
    switch (fault?.mode) {
      case 'hang':
        // never answers; the connection closes when the client gives up (or the sandbox stops)
        hanging.add(res)
        res.on('close', () => hanging.delete(res))
        return
      case '429':
        return send(
          res,
          429,
          apiError('Rate limit reached for requests. (sandbox)', 'requests', 'rate_limit_exceeded'),
          { 'Retry-After': String(fault.retryAfter) },
        )
      case '500':
        return send(
          res,
          500,
          apiError('The server had an error while processing your request. (sandbox)', 'server_error'),
        )
      case 'non_json':
        res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'text/html' })
        return res.end('<html><body>502 Bad Gateway (sandbox)</body></html>')
      case 'empty_choices':
        return send(res, 200, completion([], 0, 0))
      default:
    }
    const input = promptInput(user)
    let text = answer(task, input) ?? `Sandbox reply to: ${clip(user, 200)}`
    if (fault?.mode === 'over_long') text = `${text} ${'and so on '.repeat(400)}`.trim()
    if (fault?.mode === 'bad_content') text = 'As an AI language model I cannot help with that.'
    if (!fault) record({ task, status: 200, fault: null, body: raw })
    const maxTokens = Number(request.max_tokens ?? request.max_completion_tokens) || 0
    const promptTokens = tokensOf(system + user)
    let completionTokens = tokensOf(text)
    let finish = 'stop'
    if (maxTokens > 0 && completionTokens > maxTokens && fault?.mode !== 'over_long') {
      text = text.slice(0, maxTokens * 4)
      completionTokens = maxTokens
      finish = 'length'
    }
    send(
      res,
      200,
      completion(
        [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finish, logprobs: null }],
        promptTokens,
        completionTokens,
      ),
    )
  }

  const completion = (choices: unknown[], promptTokens: number, completionTokens: number) => ({
    id: `chatcmpl-sandbox-${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: SANDBOX_MODEL,
    system_fingerprint: 'reachflow-sandbox',
    choices,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  })

  const control = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (path === '/__sandbox/health') return send(res, 200, { ok: true, sandbox: 'ai' })
    if (path === '/__sandbox/requests' && req.method === 'GET') return send(res, 200, { requests: log })
    if (path === '/__sandbox/requests' && req.method === 'DELETE') {
      log.length = 0
      return send(res, 200, { ok: true })
    }
    if (path === '/__sandbox/faults' && req.method === 'GET') return send(res, 200, { faults })
    if (path === '/__sandbox/faults' && req.method === 'DELETE') {
      faults = []
      for (const held of hanging) held.destroy()
      return send(res, 200, { ok: true })
    }
    if (path === '/__sandbox/faults' && req.method === 'POST') {
      let body: Json
      try {
        body = JSON.parse(await readBody(req)) as Json
      } catch {
        return send(res, 400, { error: 'Body must be JSON' })
      }
      const mode = body.mode as FaultMode
      if (!FAULT_MODES.includes(mode))
        return send(res, 400, { error: `mode must be one of ${FAULT_MODES.join(', ')}` })
      const times = body.times === undefined ? 1 : Number(body.times)
      if (!Number.isInteger(times) || times < 1 || times > 1000)
        return send(res, 400, { error: 'times must be a whole number from 1 to 1000' })
      const retryAfter = body.retryAfter === undefined ? 1 : Number(body.retryAfter)
      if (!Number.isFinite(retryAfter) || retryAfter < 0 || retryAfter > 3600)
        return send(res, 400, { error: 'retryAfter must be 0-3600 seconds' })
      const fault: Fault = { id: nextFaultId++, mode, match: str(body.match), remaining: times, retryAfter }
      faults.push(fault)
      return send(res, 201, fault)
    }
    return send(res, 404, { error: 'Not found' })
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname.replace(/\/+$/, '') || '/'
    const handle = async () => {
      if (path.startsWith('/__sandbox/')) return control(req, res, path)
      if (path === '/v1/models' && req.method === 'GET') {
        return send(res, 200, {
          object: 'list',
          data: [
            { id: SANDBOX_MODEL, object: 'model', created: 1_790_000_000, owned_by: 'reachflow-sandbox' },
          ],
        })
      }
      if (path === '/v1/chat/completions' && req.method === 'POST') return completions(req, res)
      send(res, 404, apiError(`Unknown request URL: ${req.method} ${path}.`, 'invalid_request_error'))
    }
    handle().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, apiError(String(error), 'server_error'))
    })
  })
  const close = () => {
    for (const held of hanging) held.destroy()
    server.close()
  }
  return { server, close }
}

// The local mail outbox: auth's e-mails (password recovery) are written here instead of being sent,
// and a developer opens them at /_outbox (HTML) or reads /_outbox.json (tests). Like the Inbucket
// page of the Supabase CLI, it is a local-only convenience; nothing leaves the machine.
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureDir, type StackConfig } from '../../../src/config.ts'
import { type GatewayContext, type GatewayRequest, sendJson } from '../http.ts'

export interface Mail {
  id: string
  to: string
  subject: string
  text: string
  links: string[]
  sent_at: string
}

const outboxDir = (config: StackConfig) => join(config.dir, 'outbox')

export function sendMail(config: StackConfig, mail: Omit<Mail, 'id' | 'sent_at'>): Mail {
  const sentAt = new Date().toISOString()
  const full: Mail = { id: `${Date.now()}-${randomUUID()}`, sent_at: sentAt, ...mail }
  writeFileSync(join(ensureDir(outboxDir(config)), `${full.id}.json`), JSON.stringify(full, null, 2))
  return full
}

export function listMail(config: StackConfig): Mail[] {
  const dir = outboxDir(config)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .reverse()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Mail)
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(mails: Mail[]): string {
  const items = mails
    .map(
      (mail) => `<li><article>
  <h2>${escapeHtml(mail.subject)}</h2>
  <p class="meta">To ${escapeHtml(mail.to)} · ${escapeHtml(mail.sent_at)}</p>
  <pre>${escapeHtml(mail.text)}</pre>
  ${mail.links.map((link) => `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`).join('\n')}
</article></li>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mail outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#111}
ul{list-style:none;padding:0}li{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:0 0 1rem}
h2{margin:0 0 .25rem;font-size:1.1rem}.meta{color:#555;margin:0 0 .5rem}pre{white-space:pre-wrap}
a{word-break:break-all}</style></head>
<body><h1>Mail outbox</h1>
<p>E-mails the local stack would have sent, newest first. Nothing here left this machine.</p>
${mails.length === 0 ? '<p>No mail yet.</p>' : `<ul>${items}</ul>`}
</body></html>`
}

/** GET /_outbox (HTML) and GET /_outbox.json (optionally ?to=address). */
export async function outboxHandler(request: GatewayRequest, ctx: GatewayContext): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return sendJson(request.res, 405, { message: 'Method not allowed' })
  }
  const to = request.url.searchParams.get('to')?.toLowerCase()
  const mails = listMail(ctx.config).filter((mail) => !to || mail.to === to)
  if (request.url.pathname === '/_outbox.json') return sendJson(request.res, 200, mails)
  request.res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
  request.res.end(page(mails))
}

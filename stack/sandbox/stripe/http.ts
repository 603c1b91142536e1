// Small helpers for node:http handlers: reading bodies with a size cap, and writing answers.
import type { IncomingMessage, ServerResponse } from 'node:http'

export class BodyTooLarge extends Error {}

export async function readBody(req: IncomingMessage, maxBytes = 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > maxBytes) throw new BodyTooLarge(`Request body larger than ${maxBytes} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers })
  res.end(body)
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, JSON.stringify(value, null, 2), { 'Content-Type': 'application/json', ...headers })
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  send(res, status, html, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Content-Length': '0' })
  res.end()
}

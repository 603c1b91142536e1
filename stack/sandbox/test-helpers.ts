// Starting a sandbox in-process on a free port for its own tests (so they never touch the clock
// or state of the shared test stack's sandboxes), and small HTTP helpers.
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export async function listening<T extends { server: Server }>(app: T): Promise<T & { base: string }> {
  if (!app.server.listening) await once(app.server, 'listening')
  const { port } = app.server.address() as AddressInfo
  return { ...app, base: `http://127.0.0.1:${port}` }
}

export async function json<T = Record<string, unknown>>(
  base: string,
  path: string,
  init: {
    method?: string
    body?: unknown
    headers?: Record<string, string>
    form?: Record<string, string>
  } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers }
  let body: string | undefined
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(init.form).toString()
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(init.body)
  }
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // HTML or plain text
  }
  return { status: response.status, body: parsed as T, headers: response.headers }
}

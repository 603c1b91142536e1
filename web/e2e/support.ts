import { expect, type Page } from '@playwright/test'

export const apiUrl = process.env.SUPABASE_URL ?? 'http://127.0.0.1:54321'

/** A fresh address per test, so tests never depend on each other's users. */
export function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
}

export async function signUp(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByRole('button', { name: "Don't have an account? Sign up here" }).click()
  await page.getByLabel('Email address').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(page).toHaveURL(/\/dashboard/)
}

/** The link containing `needle` in the newest outbox mail sent to `recipient`. */
export async function outboxLink(recipient: string, needle: string): Promise<string> {
  const html = await (await fetch(`${apiUrl}/_outbox`)).text()
  const mail = html.split('<li').find((block) => block.includes(recipient))
  if (!mail) throw new Error(`No outbox mail for ${recipient}`)
  const link = [...mail.matchAll(/href="([^"]+)"/g)]
    .map((m) => (m[1] ?? '').replace(/&amp;/g, '&').replace(/&#38;/g, '&'))
    .find((href) => href.includes(needle))
  if (!link) throw new Error(`No link containing ${needle} in the mail to ${recipient}`)
  return link
}

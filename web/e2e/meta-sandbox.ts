// The Meta sandbox as the Instagram e2e tests drive it: a new professional account, its control API
// (posts, comments, deliveries), and a customer connecting it through the add-account wizard and
// Instagram's consent screens.
import { expect, type Page } from '@playwright/test'

export const meta = process.env.INSTAGRAM_LOGIN_URL ?? 'http://127.0.0.1:55346'

export async function sandboxAccount(): Promise<{ username: string; password: string }> {
  const username = `studio_${Math.random().toString(36).slice(2, 10)}`
  const response = await fetch(`${meta}/__sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'pw-123456', name: 'Studio' }),
  })
  expect(response.status).toBe(200)
  return { username, password: 'pw-123456' }
}

export async function metaControl<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${meta}/__sandbox${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as T
}

/** Add Account › Instagram › Official Instagram API › Continue to Instagram; `beforeLeaving` runs with the choice on screen. */
export async function chooseOfficial(page: Page, beforeLeaving?: () => Promise<void>) {
  await page
    .getByRole('button', { name: /Add Account/ })
    .first()
    .click()
  const wizard = page.getByRole('dialog', { name: 'Add Social Media Account' })
  await wizard.getByRole('button', { name: /Instagram/ }).click()
  await expect(wizard.getByRole('radio', { name: /Browser sign-in/ })).toBeChecked()
  await wizard.getByRole('radio', { name: /Official Instagram API/ }).check()
  await wizard.getByRole('button', { name: 'Continue to Instagram' }).scrollIntoViewIfNeeded()
  await beforeLeaving?.()
  await wizard.getByRole('button', { name: 'Continue to Instagram' }).click()
}

export async function signInOnInstagram(page: Page, account: { username: string; password: string }) {
  await expect(page.getByRole('heading', { name: /Log in to continue to Reachflow/ })).toBeVisible()
  await page.getByLabel('Username').fill(account.username)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('heading', { name: 'Reachflow would like to:' })).toBeVisible()
}

/** Back from Instagram: Reachflow's page says which workspace the account joins; confirm it. */
export async function confirmWorkspace(page: Page) {
  await expect(page.getByRole('heading', { name: 'Add this Instagram account to Reachflow?' })).toBeVisible()
  await page.getByRole('button', { name: 'Add to this workspace' }).click()
}

/** From Social Accounts: the whole consent with Allow, ending on the active account's card. */
export async function connectOfficial(page: Page, account: { username: string; password: string }) {
  await chooseOfficial(page)
  await signInOnInstagram(page, account)
  await page.getByRole('button', { name: 'Allow' }).click()
  await confirmWorkspace(page)
  await expect(page.getByTestId('account-card').filter({ hasText: account.username })).toContainText('Active')
}

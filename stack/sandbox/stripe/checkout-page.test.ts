// The hosted checkout page in a real browser (Debian's Chromium through playwright-core):
// a test card that succeeds returns to success_url with the session id; a declined one shows why.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Browser, chromium } from 'playwright-core'
import type Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StripeSandbox } from './server.ts'
import { type Receiver, startReceiver, startSandbox } from './test-support.ts'

let receiver: Receiver
let sandbox: StripeSandbox
let stripe: Stripe
let browser: Browser
let site: Server
let siteUrl: string

beforeAll(async () => {
  receiver = await startReceiver()
  ;({ sandbox, stripe } = await startSandbox(receiver))
  // Stands in for the web app's /success and /cancel pages.
  site = createServer((req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<h1>${req.url}</h1>`),
  )
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
})
afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
  await receiver?.close()
  site?.close()
})

function session(email: string) {
  return stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [
      {
        quantity: 2,
        price_data: {
          currency: 'usd',
          unit_amount: 3900,
          recurring: { interval: 'month' },
          product_data: { name: 'Growth' },
        },
      },
    ],
    customer_email: email,
    subscription_data: { trial_period_days: 3 },
    success_url: `${siteUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${siteUrl}/cancel`,
  })
}

async function fillCard(page: import('playwright-core').Page, card: string) {
  await page.getByLabel('Card information').fill(card)
  await page.getByLabel('Expiry').fill('12 / 34')
  await page.getByLabel('CVC').fill('123')
  await page.getByLabel('Name on card').fill('Ann Buyer')
  await page.getByRole('button', { name: 'Start trial' }).click()
}

describe('hosted checkout page', () => {
  it('shows the plan and trial, and 4242… completes the session and returns to success_url', async () => {
    const created = await session('page-ok@example.com')
    const page = await browser.newPage()
    try {
      await page.goto(created.url ?? '')
      await expect(page.getByText('3 days free').first().isVisible()).resolves.toBe(true)
      expect(await page.textContent('body')).toContain('Then $78.00 per month')
      expect(await page.inputValue('#email')).toBe('page-ok@example.com')
      await fillCard(page, '4242 4242 4242 4242')
      await page.waitForURL(`${siteUrl}/success?session_id=${created.id}`)
      const done = await stripe.checkout.sessions.retrieve(created.id, { expand: ['subscription'] })
      expect(done.status).toBe('complete')
      expect((done.subscription as Stripe.Subscription).status).toBe('trialing')
    } finally {
      await page.close()
    }
  })

  it('declines 4000 0000 0000 0002 with a visible message and leaves the session open', async () => {
    const created = await session('page-declined@example.com')
    const page = await browser.newPage()
    try {
      await page.goto(created.url ?? '')
      await fillCard(page, '4000 0000 0000 0002')
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Your card was declined.')
      expect(page.url()).toBe(created.url)
      expect((await stripe.checkout.sessions.retrieve(created.id)).status).toBe('open')
    } finally {
      await page.close()
    }
  })

  it('rejects a card number that is not a card, and Cancel goes back to cancel_url', async () => {
    const created = await session('page-cancel@example.com')
    const page = await browser.newPage()
    try {
      await page.goto(created.url ?? '')
      await fillCard(page, '1234 5678 9012 3456')
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Your card number is invalid.')
      await page.getByTestId('checkout-cancel').click()
      await page.waitForURL(`${siteUrl}/cancel`)
    } finally {
      await page.close()
    }
  })
})

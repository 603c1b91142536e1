// The demo customer's payment history opens real invoices (the seeded ones are
// imported into the Stripe sandbox by `npm start`; under `npm test` the test imports them the same
// way), and a failure leaves no blank tab behind.
import { expect, test } from '@playwright/test'

const stripeBase = process.env.STRIPE_API_BASE ?? 'http://127.0.0.1:55340'

import { insertAsService, signUpThroughApi, skipOnboarding, uniqueEmail } from './support'

test('invoice buttons open the hosted invoice; a missing one says so and leaves no blank tab', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('invoices')
  const userId = await signUpThroughApi(page, email, 'e2e-password-123')
  await skipOnboarding(userId)
  const stamp = Date.now().toString(36)
  const known = `in_e2e_${stamp}`
  const missing = `in_e2e_missing_${stamp}`
  const day = 86_400_000
  await insertAsService('payments', [
    {
      user_id: userId,
      amount: 111_600,
      currency: 'usd',
      status: 'succeeded',
      description: 'Growth plan (yearly)',
      stripe_invoice_id: known,
      created_at: new Date(Date.now() - day).toISOString(),
    },
    {
      user_id: userId,
      amount: 4900,
      currency: 'usd',
      status: 'succeeded',
      description: 'Starter plan (monthly)',
      stripe_invoice_id: missing,
      created_at: new Date(Date.now() - 2 * day).toISOString(),
    },
  ])
  // The invoice exists in Stripe (the sandbox); the other one does not.
  const imported = await fetch(`${stripeBase}/__sandbox/invoices/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      invoices: [
        {
          id: known,
          customerEmail: email,
          amount: 111_600,
          currency: 'usd',
          paid: true,
          description: 'Growth plan (yearly)',
          created: Math.floor((Date.now() - day) / 1000),
        },
      ],
    }),
  })
  expect(imported.status).toBe(200)

  await page.goto('/billing')
  await page.getByRole('tab', { name: 'Payment History' }).click()
  const rows = page.getByRole('row')
  const knownRow = rows.filter({ hasText: 'Growth plan (yearly)' })
  await expect(knownRow).toContainText('$1,116')
  const opened = context.waitForEvent('page')
  await knownRow.getByRole('button', { name: 'Invoice' }).click()
  const invoice = await opened
  await expect(invoice).toHaveURL(new RegExp(`/i/${known}$`))
  await expect(invoice.getByRole('heading', { name: /^Invoice / })).toBeVisible()
  await invoice.close()

  const pagesBefore = context.pages().length
  await rows.filter({ hasText: 'Starter plan (monthly)' }).getByRole('button', { name: 'Invoice' }).click()
  await expect(page.getByText('Could not open the invoice')).toBeVisible()
  await expect(page.getByText('Invoice not found')).toBeVisible()
  expect(context.pages().length).toBe(pagesBefore)
})

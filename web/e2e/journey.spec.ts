// The customer's whole first visit through the real stack and its sandboxes (product.md §2, §4):
// sign up → onboarding → checkout on the Stripe sandbox → /success → dashboard with the setup
// modal → connect an X sandbox account by cookies → settings with a photo → billing shows the
// trial → cancel → resume, plus the notifications bell.
import { expect, test } from '@playwright/test'
import { runnerForTheseTests } from './runner-process'
import {
  insertAsService,
  signUp,
  signUpThroughApi,
  skipOnboarding,
  uniqueEmail,
  xSandboxAccount,
} from './support'

// A 1×1 PNG, the smallest real image the avatar upload accepts.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

// Connecting waits for the runner's account test, so a runner works the queue.
runnerForTheseTests()

test('sign-up to a paid trial, a connected X account, settings and billing', async ({ page }) => {
  test.setTimeout(300_000)
  const email = uniqueEmail('journey')
  await signUp(page, email, 'journey-password-1')

  // Onboarding wizard (onboarding_completed is false for a new user).
  await page.getByRole('button', { name: "Let's Get Started" }).click()
  const goalsContinue = page.getByRole('button', { name: 'Continue' })
  await expect(goalsContinue).toBeDisabled()
  await page.getByText('Lead Generation').click()
  await goalsContinue.click()
  await expect(page.getByText('Your goals have been saved')).toBeVisible()
  await page.getByRole('button', { name: 'Start 3-Day Free Trial' }).click()

  // The Stripe sandbox's hosted checkout page.
  await expect(page.getByRole('button', { name: 'Start trial' })).toBeVisible({ timeout: 30_000 })
  await expect(page.locator('#email')).toHaveValue(email)
  await page.getByLabel('Card information').fill('4242 4242 4242 4242')
  await page.getByLabel('Expiry').fill('12 / 34')
  await page.getByLabel('CVC').fill('123')
  await page.getByLabel('Name on card').fill('Journey Buyer')
  await page.getByRole('button', { name: 'Start trial' }).click()

  // /success reads the checkout session.
  await expect(page).toHaveURL(/\/success\?session_id=/)
  await expect(page.getByRole('heading', { name: 'Welcome to Reachflow!' })).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()
  // A trial: nothing charged today, and the first charge named.
  await expect(page.getByText('Your free trial has started')).toBeVisible()
  const summary = page.locator('dl')
  await expect(summary.getByText('Due today')).toBeVisible()
  await expect(summary).toContainText('$0')
  await expect(summary).toContainText('Free trial')
  await expect(summary).toContainText(/First charge\$\d[\d,]* on [A-Z][a-z]+ \d{1,2}, \d{4}/)
  await expect(summary).not.toContainText('Amount paid')
  await page.getByRole('link', { name: 'Go to Dashboard' }).click()

  // The setup modal connects a real X sandbox session.
  const modal = page.getByRole('dialog', { name: 'Complete Your Setup' })
  await expect(modal).toBeVisible()
  await expect(modal.getByText('Ready to Add Account')).toBeVisible()
  const x = await xSandboxAccount()
  await modal.getByRole('button', { name: /Twitter/ }).click()
  await modal.getByLabel('Username').fill(x.username)
  await modal.getByLabel('Cookies (JSON)').fill(JSON.stringify(x.cookies))
  await modal.getByLabel('X Chat passcode').fill(x.passcode ?? '')
  await modal.getByRole('button', { name: 'Connect Account' }).click()
  // The runner's test is shown as it runs; success only once it passed.
  await expect(modal.getByText(new RegExp(`Signing in to X as @${x.username}`))).toBeVisible()
  await expect(page.getByText('Account connected successfully!')).toBeVisible({ timeout: 120_000 })
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText('Ready for outreach'),
  ).toBeVisible()
  await expect(modal).toBeHidden()
  // The dashboard behind the modal counts the new account at once, without a reload.
  await expect(page.getByRole('tab', { name: /Social Accounts/ })).toContainText('1')
  // post_onboarding is saved: the modal stays away after a reload.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Complete Your Setup' })).toHaveCount(0)

  // Settings: photo and names are stored and come back after a reload.
  await page.goto('/settings')
  await page.locator('#avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await expect(page.getByText('Profile photo updated successfully!')).toBeVisible()
  await expect(page.getByRole('img', { name: 'Your profile' })).toHaveAttribute(
    'src',
    /\/storage\/v1\/object\/public\/avatars\/.+\/avatar\.png/,
  )
  // the header's avatar is the photo, at once and on the dashboard too (initials stayed before)
  const headerAvatar = page.getByRole('button', { name: 'Account menu' }).locator('img')
  await expect(headerAvatar).toHaveAttribute('src', /\/avatars\/.+\/avatar\.png/)
  await page.getByLabel('Full Name').fill('Journey Person')
  await page.getByLabel('Business Name').fill('Journey Ltd')
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Settings saved successfully')).toBeVisible()
  await page.goto('/dashboard')
  await expect(headerAvatar).toHaveAttribute('src', /\/avatars\/.+\/avatar\.png/)
  await page.getByRole('button', { name: 'Account menu' }).click()
  await expect(page.getByRole('menu')).toContainText('Journey Person')
  await expect(page.getByRole('menu').locator('img')).toHaveAttribute('src', /avatar\.png/)
  await page.keyboard.press('Escape')
  await page.goto('/settings')
  await page.reload()
  await expect(page.getByLabel('Full Name')).toHaveValue('Journey Person')
  await expect(page.getByLabel('Business Name')).toHaveValue('Journey Ltd')
  await expect(page.getByRole('img', { name: 'Your profile' })).toBeVisible()

  // Billing shows the trial; cancel at period end, then resume.
  await page.goto('/billing')
  const overview = page.getByRole('tabpanel', { name: 'Overview' })
  await expect(overview.getByText('Current Plan').locator('xpath=..')).toContainText(/Starter\s*Trial/)
  await expect(page.getByText('Your free trial converts to a paid plan on this date')).toBeVisible()
  await page.getByRole('tab', { name: 'Subscription' }).click()
  await page.getByRole('button', { name: 'Cancel Subscription' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel Subscription' }).click()
  await expect(page.getByText(/^Cancels at /)).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Resume Subscription' }).click()
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible({ timeout: 30_000 })
  await page.reload()
  await page.getByRole('tab', { name: 'Subscription' }).click()
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible()
})

test('the notifications bell: badge, newest first, mark one and all read', async ({ page }) => {
  const userId = await signUpThroughApi(page, uniqueEmail('bell'), 'bell-password-1')
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString()
  await insertAsService('notifications', [
    { user_id: userId, type: 'campaign_completed', title: 'Campaign completed', created_at: at(30) },
    { user_id: userId, type: 'account_flagged', title: 'Account flagged', created_at: at(5) },
  ])
  // The bell lives in the signed-in pages' header, behind the onboarding wizard.
  await skipOnboarding(userId)
  await page.goto('/settings')
  await page.getByRole('button', { name: 'Notifications, 2 unread' }).click()
  const panel = page.getByRole('dialog', { name: 'Notifications' })
  await expect(panel.getByRole('listitem')).toHaveText([/Account flagged/, /Campaign completed/])
  await expect(panel.getByText('5 minutes ago')).toBeVisible()
  await panel.getByRole('button', { name: /Campaign completed/ }).click()
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible()
  await panel.getByRole('button', { name: 'Mark all as read' }).click()
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(panel).toBeHidden()
  await page.reload()
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible()
})

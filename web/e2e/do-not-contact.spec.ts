// The do-not-contact screen end to end on the real stack: add someone, import a CSV with bad and
// repeated rows (each said, the bad ones downloadable to fix), a campaign's lead skipped because of
// the list (counted on the screen and in the campaign's figures), a formula-safe export, removal
// with confirmation, and the opt-out words edited with their rules.
import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { sql, userIdOf } from './db'
import { completeOnboarding } from './runner-process'
import { signUpThroughApi, uniqueEmail } from './support'

/** Test set-up, as the system would make it: an X account, a scraped source of 3 people, a draft campaign from it. */
async function campaignOfThree(userId: string, tag: string) {
  const [account] = await sql<{ id: string }>(
    `insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase)
     select $1, p.id, 'dnc_' || $2, 'active', 5 from public.platforms p where p.name = 'twitter' returning id`,
    [userId, tag],
  )
  const [source] = await sql<{ id: string }>(
    `insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
     values ($1, 'Founders', $2, '[{"type": "followers", "value": "founders"}]', 10) returning id`,
    [userId, account?.id],
  )
  await sql(
    `insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, source_type, source_value)
     select $1, $2, u, '{}', 'followers', 'founders' from unnest(array['amy_' || $3, 'ben_' || $3, 'cat_' || $3]) u`,
    [source?.id, userId, tag],
  )
  const [campaign] = await sql<{ id: string }>(
    `insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences, status)
     values ($1, 'Founders DM', $2, $3, '{"messages": ["hi"]}', 'draft') returning id`,
    [userId, account?.id, source?.id],
  )
  if (!campaign) throw new Error('no campaign')
  return campaign.id
}

test('do-not-contact: add, CSV import with bad and repeated rows, a lead skipped, export, remove, opt-out words', async ({
  page,
}, info) => {
  test.setTimeout(180_000)
  const email = uniqueEmail('dnc')
  const userId = await signUpThroughApi(page, email, 'dnc-password-1')
  await completeOnboarding(email)
  const tag = Date.now().toString(36).slice(-6)
  const campaignId = await campaignOfThree(userId, tag)

  await page.goto('/settings')
  await page.getByRole('link', { name: /Do-not-contact list/ }).click()
  await expect(page).toHaveURL(/\/settings\/do-not-contact$/)
  await expect(page.getByRole('heading', { name: 'Do-not-contact list' })).toBeVisible()
  await expect(page.getByText('Nobody on the list yet')).toBeVisible()

  // Add one person by hand, with a note a spreadsheet would run as a formula.
  await page.getByRole('button', { name: 'Add person' }).first().click()
  const add = page.getByRole('dialog', { name: 'Add to the do-not-contact list' })
  await add.getByLabel('Username').fill('not a handle')
  await add.getByRole('button', { name: 'Add to list' }).click()
  await expect(
    add.getByText('"not a handle" is not an X username (1-15 letters, digits or _).'),
  ).toBeVisible()
  await add.getByLabel('Username').fill(`https://x.com/zed_${tag}`)
  await add.getByLabel('Note').fill('=HYPERLINK("http://evil")')
  await add.getByRole('button', { name: 'Add to list' }).click()
  await expect(page.getByText(`@zed_${tag} will never be messaged on Twitter`)).toBeVisible()
  await expect(page.getByTestId('dnc-entry')).toHaveCount(1)

  // Import: one of the campaign's leads (twice, in two spellings), an Instagram person, two bad rows.
  await page.getByRole('button', { name: 'Import CSV' }).click()
  const importer = page.getByRole('dialog', { name: 'Import a do-not-contact list' })
  const csv = [
    'username,platform,reason',
    `@amy_${tag},twitter,Asked by e-mail`,
    `AMY_${tag},x,again`,
    `https://www.instagram.com/insta.${tag}/,,`,
    'bad name,twitter,',
    `carl_${tag},linkedin,`,
  ].join('\r\n')
  await importer
    .getByLabel('CSV file')
    .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  const preview = importer.getByRole('region', { name: 'Preview' })
  await expect(preview.getByText('2 people to add')).toBeVisible()
  await expect(preview.getByText('1 repeated row merged')).toBeVisible()
  await expect(preview.getByText('2 rows with errors, not imported')).toBeVisible()
  await expect(preview.getByTestId('dnc-preview-row')).toHaveText([
    /2@amy_.*TwitterWill be added/,
    /3@AMY_.*Same person as line 2: merged/,
    /4@insta\..*InstagramWill be added/,
    /5@bad name.*is not an X username/,
    /6@carl_.*Unknown platform "linkedin": use Twitter or Instagram\./,
  ])
  await page.screenshot({ path: info.outputPath('dnc-import-preview-1280.png') })
  await importer.getByRole('button', { name: 'Import 2 people' }).click()
  const finished = page.getByRole('dialog', { name: 'Import finished' })
  await expect(finished.getByText('2 people added, 1 repeated row merged.')).toBeVisible()
  await expect(finished.getByText(/2 rows not imported/)).toBeVisible()
  const fixing = page.waitForEvent('download')
  await finished.getByRole('button', { name: 'Download rows to fix' }).click()
  const toFix = await readFile((await (await fixing).path()) ?? '', 'utf8')
  expect(toFix.trimEnd().split('\r\n')).toEqual([
    '"username","platform","reason","error"',
    '"bad name","twitter","","""bad name"" is not an X username (1-15 letters, digits or _)."',
    `"carl_${tag}","linkedin","","Unknown platform ""linkedin"": use Twitter or Instagram."`,
  ])
  await finished.getByRole('button', { name: 'Done' }).click()

  // The campaign's lead is skipped because of the list, and the screen counts it.
  const [lead] = await sql<{ state: string; skip_reason: string }>(
    `select state, skip_reason from public.campaign_leads where campaign_id = $1 and username = $2`,
    [campaignId, `amy_${tag}`],
  )
  expect(lead).toEqual({ state: 'skipped', skip_reason: 'do_not_contact' })
  await expect(page.getByText('People on the list').locator('..')).toContainText('3')
  await expect(page.getByText('Leads skipped because of it').locator('..')).toContainText('1')
  await expect(page.getByTestId('dnc-entry').filter({ hasText: `@amy_${tag}` })).toContainText('1 lead')
  await expect(page.getByTestId('dnc-entry').filter({ hasText: `@amy_${tag}` })).toContainText(
    'Asked by e-mail',
  )
  await page.getByLabel('Search the list').fill('insta')
  await expect(page.getByTestId('dnc-entry')).toHaveCount(1)
  // a search is a few words: a pasted essay is cut at the database's cap, and the screen says so
  await page.getByLabel('Search the list').fill('a'.repeat(150))
  await expect(page.getByLabel('Search the list')).toHaveValue('a'.repeat(100))
  await expect(page.getByText('A search uses at most 100 characters.')).toBeVisible()
  await expect(page.getByText('Nobody found')).toBeVisible()
  await page.getByLabel('Search the list').fill('')
  await expect(page.getByTestId('dnc-entry')).toHaveCount(3)
  await page.screenshot({ path: info.outputPath('dnc-list-1280.png'), fullPage: true })

  // Export: every field quoted, the formula neutralised.
  const exporting = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const exported = await readFile((await (await exporting).path()) ?? '', 'utf8')
  const lines = exported.trimEnd().split('\r\n')
  expect(lines[0]).toBe('"username","platform","reason","added_at","skipped_leads"')
  expect(lines).toHaveLength(4)
  expect(lines.find((l) => l.startsWith(`"zed_${tag}"`))).toMatch(
    /^"zed_\w+","twitter","'=HYPERLINK\(""http:\/\/evil""\)","[^"]+","0"$/,
  )
  expect(lines.find((l) => l.startsWith(`"amy_${tag}"`))).toMatch(/,"1"$/)

  // Remove, with confirmation.
  await page.getByRole('button', { name: `Remove @zed_${tag}` }).click()
  const confirm = page.getByRole('dialog', { name: `Remove @zed_${tag}?` })
  await expect(confirm).toContainText('Leads already skipped stay skipped.')
  await confirm.getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByTestId('dnc-entry')).toHaveCount(2)

  // The opt-out words: shown, edited with their rules, tried, saved.
  const words = page.getByRole('heading', { name: 'Opt-out words' }).locator('../..')
  await expect(words.getByRole('list', { name: 'Anywhere in a reply' })).toHaveText(/unsubscribe/)
  await expect(words.getByRole('list', { name: 'At the start of a short reply' })).toHaveText(/stop/)
  await expect(words.getByRole('button', { name: 'Save words' })).toBeDisabled()
  await words.getByLabel('Add a word: anywhere in a reply').fill('stop!!')
  await words.getByLabel('Add a word: anywhere in a reply').press('Enter')
  await expect(words.getByText('"stop!!" can only hold letters, digits, spaces, \' and -.')).toBeVisible()
  await words.getByLabel('Add a word: anywhere in a reply').fill('Remove me')
  await words.getByLabel('Add a word: anywhere in a reply').press('Enter')
  await words.getByLabel('Try a reply').fill('Please remove me from your list')
  await expect(words.getByRole('status')).toHaveText('Opts out (because of "remove me")')
  await words.getByRole('button', { name: 'Save words' }).click()
  await expect(page.getByText('Opt-out words saved')).toBeVisible()
  await page.reload()
  await expect(
    page.getByRole('list', { name: 'Anywhere in a reply' }).getByText('remove me', { exact: true }),
  ).toBeVisible()
  const [stored] = await sql<{ anywhere: string[] }>(
    'select anywhere from public.opt_out_settings where user_id = $1',
    [await userIdOf(email)],
  )
  expect(stored?.anywhere).toEqual(['unsubscribe', 'remove me'])

  // The Leads tab links here; a phone.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: info.outputPath('dnc-list-390.png'), fullPage: true })
  await page.goto('/dashboard?tab=leads')
  await page.getByRole('link', { name: 'Do-not-contact list' }).click()
  await expect(page).toHaveURL(/\/settings\/do-not-contact$/)
})

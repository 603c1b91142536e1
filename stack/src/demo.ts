// The live part of the demo (`npm start`): the demo customer's X account really signs in to the X
// sandbox and its running campaign really sends. seed.sql cannot hold sign-in details (only code
// with the encryption keys can seal them), so once the sandboxes are up this step seals the
// sandbox account's cookies and passcode the way the social-accounts function does, and tells the
// X sandbox about the people the seeded campaigns message (seeded usernames are not in its crowd).
// It runs before the runner starts, so the runner never sees the account without its details.
import pg from 'pg'
import { encryptSecret, keyringFromEnv } from '../../runner/src/crypto.ts'
import { parseXCookies } from '../../runner/src/platforms/x/cookies.ts'
import type { StackConfig } from './config.ts'
import { functionsEnv } from './functions-env.ts'

/** The seeded X account (supabase/seed.sql) and the sandbox account of the same name. */
const DEMO_X_ACCOUNT_ID = 'ac000000-0000-4000-8000-000000000001'
const DEMO_USER_ID = 'd0000000-0000-4000-8000-000000000001'

async function sandbox<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/__sandbox${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : null,
  })
  if (!response.ok) throw new Error(`X sandbox ${method} ${path} answered ${response.status}`)
  return (await response.json()) as T
}

export async function prepareDemo(config: StackConfig, log: (line: string) => void): Promise<void> {
  const client = new pg.Client({ connectionString: config.dbUrl })
  await client.connect()
  try {
    await importDemoInvoices(config, client, log).catch((error: unknown) =>
      log(`The demo invoices could not be imported: ${error instanceof Error ? error.message : error}`),
    )
    const account = await client.query<{ username: string; sealed: boolean }>(
      `select a.username, c.account_id is not null as sealed
         from public.social_accounts a left join public.social_account_credentials c on c.account_id = a.id
        where a.id = $1`,
      [DEMO_X_ACCOUNT_ID],
    )
    const row = account.rows[0]
    if (!row) return // a seed without the demo account
    const base = config.sandboxUrls.x

    // everyone the demo customer's X campaigns may message, as people of the sandbox
    const leads = await client.query<{ username: string; name: string | null; bio: string | null }>(
      `select distinct on (lower(l.username)) l.username, l.profile_data ->> 'display_name' as name,
              l.profile_data ->> 'bio' as bio
         from public.campaign_leads l join public.campaigns c on c.id = l.campaign_id
         join public.social_accounts a on a.id = c.account_id
        where c.user_id = $1 and a.id = $2`,
      [DEMO_USER_ID, DEMO_X_ACCOUNT_ID],
    )
    // a seeded name X would not allow (over 15 characters) stays unknown: the runner skips that lead
    const people = leads.rows.filter((l) => /^[A-Za-z0-9_]{1,15}$/.test(l.username))
    await sandbox(base, 'POST', '/profiles', {
      profiles: people.map((l) => ({
        username: l.username,
        name: l.name ?? l.username,
        bio: l.bio ?? '',
      })),
    })

    if (row.sealed) return
    const demo = await sandbox<{ cookies: unknown[]; passcode: string | null }>(
      base,
      'GET',
      `/accounts/${encodeURIComponent(row.username)}`,
    )
    const parsed = parseXCookies(demo.cookies)
    if (!parsed.ok)
      throw new Error(`The X sandbox's cookies for @${row.username} do not parse: ${parsed.error}`)
    const keyring = keyringFromEnv(functionsEnv(config))
    const credentials = {
      v: 1,
      platform: 'twitter',
      cookies: parsed.value.cookies,
      chatPasscode: demo.passcode,
    }
    await client.query(
      `insert into public.social_account_credentials (account_id, key_id, ciphertext) values ($1, $2, $3)
       on conflict (account_id) do nothing`,
      [DEMO_X_ACCOUNT_ID, keyring.currentKeyId, encryptSecret(JSON.stringify(credentials), keyring)],
    )
    log(`Demo X account @${row.username} signs in to the X sandbox (credentials sealed).`)
  } finally {
    await client.end()
  }
}

/**
 * The seeded payment history names Stripe invoices (in_demo_…) the sandbox never issued: import
 * them, so the Billing page's invoice buttons open hosted pages for the demo customer too.
 */
async function importDemoInvoices(config: StackConfig, client: pg.Client, log: (line: string) => void) {
  const { rows } = await client.query<{
    id: string
    email: string
    amount: number
    currency: string
    paid: boolean
    description: string
    created: number
  }>(
    `select p.stripe_invoice_id as id, u.email, p.amount, p.currency, p.status = 'succeeded' as paid,
            coalesce(p.description, 'Reachflow subscription') as description,
            extract(epoch from p.created_at)::bigint as created
       from public.payments p join auth.users u on u.id = p.user_id
      where p.stripe_invoice_id like 'in\\_demo\\_%'`,
  )
  if (rows.length === 0) return
  const response = await fetch(`${config.sandboxUrls.stripe}/__sandbox/invoices/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      invoices: rows.map((r) => ({
        id: r.id,
        customerEmail: r.email,
        amount: Number(r.amount),
        currency: r.currency,
        paid: r.paid,
        description: r.description,
        created: Number(r.created),
      })),
    }),
  })
  if (!response.ok) throw new Error(`Stripe sandbox invoice import answered ${response.status}`)
  log(`Demo payment history: ${rows.length} invoices available in the Stripe sandbox.`)
}

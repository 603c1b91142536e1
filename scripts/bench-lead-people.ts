// `npx tsx scripts/bench-lead-people.ts [leads]`: the Leads tab's first page and its count, per source
// row (public.lead_view, the per-row list the Leads tab used to read) against per person (public.lead_people), for one
// customer with N scraped leads (default 10,000) of which a third were also messaged, on the running
// dev stack. Prints medians of 15 runs each, interleaved, and their ratio; rolls everything back.
import pg from 'pg'
import { stackConfig } from '../stack/src/config.ts'

const LEADS = Number(process.argv[2] ?? 10_000)
const RUNS = 15

const config = stackConfig('dev')
const client = new pg.Client({ connectionString: config.dbUrl })
await client.connect()
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
try {
  await client.query('begin')
  const { rows } = await client.query<{ id: string }>(
    `insert into auth.users (id, email, aud, role) values (gen_random_uuid(), 'bench-people@example.com', 'authenticated', 'authenticated') returning id`,
  )
  const user = rows[0]?.id
  await client.query(
    `select set_config('request.jwt.claims', json_build_object('sub', $1::text, 'role', 'authenticated')::text, true)`,
    [user],
  )
  const account = (
    await client.query<{ id: string }>(
      `insert into public.social_accounts (user_id, platform_id, username, status)
       select $1, id, 'bench_people', 'active' from public.platforms where name = 'twitter' returning id`,
      [user],
    )
  ).rows[0]?.id
  const scrape = (
    await client.query<{ id: string }>(
      `insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
       values ($1, 'Bench scrape', $2, '[{"type":"followers","value":"a"}]', 10000) returning id`,
      [user, account],
    )
  ).rows[0]?.id
  await client.query(
    `insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type, source_value, collected_at)
     select $1, $2, 'person' || i, jsonb_build_object('display_name', 'Person ' || i), i % 7 = 0, 'followers', 'a', now() - i * interval '1 minute'
       from generate_series(1, $3::int) i`,
    [scrape, user, LEADS],
  )
  const campaign = (
    await client.query<{ id: string }>(
      `insert into public.campaigns (user_id, name, account_id, sequences, status) values ($1, 'Bench DM', $2, '{"messages":["hi"]}', 'paused') returning id`,
      [user, account],
    )
  ).rows[0]?.id
  await client.query(
    `insert into public.campaign_leads (campaign_id, user_id, username, collected_at)
     select $1, $2, 'person' || i, now() - i * interval '30 seconds' from generate_series(1, $3::int / 3) i`,
    [campaign, user, LEADS],
  )
  await client.query('analyze public.scraping_campaign_leads; analyze public.campaign_leads')
  await client.query('set local role authenticated')
  const time = async (sql: string) => {
    const started = performance.now()
    await client.query(sql)
    return performance.now() - started
  }
  const queries = {
    rowsPage: 'select * from public.lead_view order by collected_at desc, id desc limit 25',
    rowsCount: 'select count(*) from public.lead_view',
    peoplePage: 'select * from public.lead_people order by last_activity desc, id desc limit 25',
    peopleCount: 'select count(*) from public.lead_people',
  }
  const samples: Record<keyof typeof queries, number[]> = {
    rowsPage: [],
    rowsCount: [],
    peoplePage: [],
    peopleCount: [],
  }
  for (let i = 0; i < RUNS; i++)
    for (const [name, sql] of Object.entries(queries))
      samples[name as keyof typeof queries].push(await time(sql))
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) as Record<
    keyof typeof queries,
    number
  >
  const rowsCount = (await client.query<{ n: number }>('select count(*)::int as n from public.lead_view'))
    .rows[0]?.n
  const people = (await client.query<{ n: number }>('select count(*)::int as n from public.lead_people'))
    .rows[0]?.n
  console.log(
    `${LEADS} scraped leads + ${Math.floor(LEADS / 3)} messaged: ${rowsCount} source rows, ${people} people`,
  )
  console.log(
    `first page: per row ${m.rowsPage.toFixed(1)} ms, per person ${m.peoplePage.toFixed(1)} ms (${(m.peoplePage / m.rowsPage).toFixed(1)}x)`,
  )
  console.log(
    `count: per row ${m.rowsCount.toFixed(1)} ms, per person ${m.peopleCount.toFixed(1)} ms (${(m.peopleCount / m.rowsCount).toFixed(1)}x)`,
  )
} finally {
  await client.query('rollback').catch(() => {})
  await client.end()
}

// Issue 44's comparison, back to back on one database: after `npm run bench:scheduler -- --keep`,
// `npx tsx scripts/bench/ab-policies.ts` times the scheduler and the dashboard reads (database CPU of
// the backend, median of AB_RUNS per round, AB_ROUNDS rounds in rotating order) as:
//   before   = the pre-workspace reads: AB_BEFORE's (bbd37b7, the foundation) dashboard functions,
//              campaign figures and tick function, and the read policies and lead views by user_id;
//   policies = the database as migrated;
//   after    = the membership helpers and dashboard functions of the working copy's schema files.
// Each variant is applied in a transaction that is rolled back, the clock held at one instant, so
// all see the same data; it prints a Markdown table and whether every variant gave the same answers.
import { execSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { repoRoot, stackConfig } from '../../stack/src/config.ts'

const BIG_CUSTOMER = 'b0000000-0000-4000-8000-000000000001'
const RUNS = Number(process.env.AB_RUNS ?? 7)
const ROUNDS = Number(process.env.AB_ROUNDS ?? 3)
const WARMUP = Number(process.env.AB_WARMUP ?? 5)
const BEFORE = process.env.AB_BEFORE ?? 'bbd37b7'

function functionText(source: string, name: string): string {
  const start = source.indexOf(`create or replace function ${name}(`)
  if (start < 0) throw new Error(`no ${name}`)
  const end = source.indexOf('\n$$;', start)
  return `${source.slice(start, end + 4)}\n`
}
const atBefore = (path: string) => execSync(`git show ${BEFORE}:${path}`, { cwd: repoRoot, encoding: 'utf8' })

const helperPattern =
  '(\\m\\w+\\.)?workspace_id = \\( SELECT internal\\.active_workspace_with_role\\([^)]*\\) AS active_workspace_with_role\\)'
const beforeSql = [
  ...[
    'public.dashboard_counts',
    'public.dashboard_snapshot',
    'public.dashboard_summary',
    'public.todays_overview',
  ].map((name) => functionText(atBefore('supabase/schemas/75_dashboard.sql'), name)),
  functionText(atBefore('supabase/schemas/40_campaigns.sql'), 'public.campaign_figures'),
  functionText(atBefore('supabase/schemas/85_scheduler.sql'), 'internal.scheduler_queue_campaign_ticks'),
  `do $do$
declare r record;
begin
  set local search_path = '';
  for r in select * from pg_catalog.pg_policies
            where schemaname = 'public' and cmd = 'SELECT' and roles = '{authenticated}'
              and qual ~ 'active_workspace_with_role'
              and tablename in ('campaigns', 'campaign_leads', 'campaign_daily_stats', 'social_accounts', 'dm_logs',
                                'scraping_campaigns', 'scraping_campaign_leads') loop
    execute format('alter policy %I on public.%I using (%s)', r.policyname, r.tablename,
                   regexp_replace(r.qual, '${helperPattern}', '\\1user_id = ( SELECT auth.uid() AS uid)', 'g'));
  end loop;
  for r in select c.oid, c.relname from pg_catalog.pg_class c
            where c.relnamespace = 'public'::regnamespace and c.relname in ('lead_view', 'lead_people') loop
    execute format('create or replace view public.%I as %s', r.relname,
                   regexp_replace(pg_catalog.pg_get_viewdef(r.oid), '${helperPattern}', '\\1user_id = ( SELECT auth.uid() AS uid)', 'g'));
  end loop;
end
$do$;`,
].join('\n')
const workingCopy = (path: string) => readFileSync(join(repoRoot, path), 'utf8')
const afterSql = [
  ...[
    'internal.active_workspace_id',
    'internal.active_workspace_of',
    'internal.active_workspace_with_role',
    'internal.has_role_on_workspace',
    'internal.workspace_role',
  ].map((name) => functionText(workingCopy('supabase/schemas/07_workspaces.sql'), name)),
  ...['public.dashboard_summary', 'public.todays_overview'].map((name) =>
    functionText(workingCopy('supabase/schemas/75_dashboard.sql'), name),
  ),
].join('\n')
// AB_EXTRA=name=file.sql,... adds variants (each applied on top of the migrated database).
const extra = (process.env.AB_EXTRA ?? '')
  .split(',')
  .filter(Boolean)
  .map((pair) => pair.split('=') as [string, string])
  .map(([name, file]): [string, string] => [name, readFileSync(file, 'utf8')])
const variants: [string, string][] = [['before', beforeSql], ['policies', ''], ['after', afterSql], ...extra]

const allReads: [string, string][] = [
  ['dashboard_summary', 'select * from public.dashboard_summary()'],
  ['todays_overview', 'select * from public.todays_overview()'],
  ['dashboard_counts', 'select public.dashboard_counts()'],
  ['lead view page 1', 'select * from public.lead_view order by collected_at desc limit 20'],
  ['lead view page 250', 'select * from public.lead_view order by collected_at desc limit 20 offset 5000'],
  ['lead view count', 'select count(*) from public.lead_view'],
  ['dashboard_snapshot', 'select public.dashboard_snapshot()'],
]

// AB_READS=name,... times only those reads; AB_SCHEDULER=0 leaves the scheduler out.
const reads = process.env.AB_READS
  ? allReads.filter(([name]) => process.env.AB_READS?.split(',').includes(name))
  : allReads
const withScheduler = process.env.AB_SCHEDULER !== '0'
const cpuNanos = (pid: number) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0])
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

async function main() {
  const config = stackConfig('bench')
  const client = new pg.Client({ connectionString: config.dbUrl })
  await client.connect()
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? 0
  // Every variant runs at the bench's following minute: it spread the campaigns' next sends over
  // the 10 minutes from its own now and moved the clock on by one minute.
  const clock = (
    await client.query<{ t: string }>(
      "select (min(next_action_at) + interval '1 minute')::text as t from public.campaigns where status = 'running'",
    )
  ).rows[0]?.t
  const results = new Map<string, number[]>()
  const record = (key: string, ms: number) => results.set(key, [...(results.get(key) ?? []), ms])
  const timed = async (sql: string) => {
    const before = cpuNanos(pid)
    const rows = (await client.query(sql)).rows
    return { ms: (cpuNanos(pid) - before) / 1e6, rows }
  }
  const answers = new Map<string, string>()
  for (let round = 0; round < ROUNDS; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length] as [string, string])
    for (const [variant, sql] of order) {
      await client.query('begin')
      try {
        if (sql) await client.query(sql)
        await client.query(`update internal.clock set "offset" = timestamptz '${clock}' - now()`)
        // A following minute as the bench leaves it, then every campaign due at once (a cold minute's ticks).
        for (const [minute, prepare] of [
          ['scheduler following minute', ''],
          [
            'scheduler every campaign due',
            "update public.campaigns set next_action_at = null where status = 'running'",
          ],
        ] as const) {
          if (!withScheduler) break
          await client.query('savepoint minute')
          if (prepare) await client.query(prepare)
          const ticks: number[] = []
          for (let run = 0; run <= RUNS; run++) {
            await client.query('savepoint tick')
            const { ms, rows } = await timed('select internal.enqueue_due_work() as s')
            if (run > 0) ticks.push(ms)
            answers.set(`${variant} ${minute}`, JSON.stringify({ ...rows[0]?.s, at: undefined }))
            await client.query('rollback to savepoint tick')
          }
          record(`${minute}|${variant}`, median(ticks))
          await client.query('rollback to savepoint minute')
        }
        await client.query("select set_config('request.jwt.claims', $1, true)", [
          JSON.stringify({ sub: BIG_CUSTOMER, role: 'authenticated', aud: 'authenticated' }),
        ])
        await client.query('set local role authenticated')
        for (const [name, read] of reads) {
          const first = await client.query(read)
          answers.set(`${variant} ${name}`, JSON.stringify(first.rows).slice(0, 2000))
          // A pooled connection's steady state: plpgsql plans a statement for its parameters on its
          // first five runs and keeps a generic plan after that.
          for (let run = 0; run < WARMUP; run++) await client.query(read)
          const runs: number[] = []
          for (let run = 0; run < RUNS; run++) runs.push((await timed(read)).ms)
          record(`${name}|${variant}`, median(runs))
        }
      } finally {
        await client.query('rollback')
      }
    }
    console.error(`round ${round + 1} done, load ${(await import('node:os')).loadavg()[0]?.toFixed(1)}`)
  }
  const names = [
    ...(withScheduler ? ['scheduler following minute', 'scheduler every campaign due'] : []),
    ...reads.map(([name]) => name),
  ]
  const others = variants.map(([v]) => v).filter((v) => v !== 'before')
  console.log(
    `| what | before | ${others.map((v) => `${v} | ${v}/before`).join(' | ')} | per-round medians |`,
  )
  console.log(`| --- | ---: | ${others.map(() => '---: | ---:').join(' | ')} | --- |`)
  for (const name of names) {
    const m = (v: string) => median(results.get(`${name}|${v}`) ?? [])
    const per = variants
      .map(([v]) => (results.get(`${name}|${v}`) ?? []).map((x) => x.toFixed(2)).join(' '))
      .join('; ')
    console.log(
      `| ${name} | ${m('before').toFixed(2)} ms | ${others.map((v) => `${m(v).toFixed(2)} ms | ${(m(v) / m('before')).toFixed(2)}`).join(' | ')} | ${per} |`,
    )
  }
  // The answers must agree between variants (same data, same caller): a faster wrong answer is no win.
  for (const name of names) {
    const seen = new Set(variants.map(([v]) => answers.get(`${v} ${name}`)))
    console.log(`answers of ${name}: ${seen.size === 1 ? 'identical' : 'DIFFER'}`)
    if (seen.size !== 1) for (const [v] of variants) console.log(`  ${v}: ${answers.get(`${v} ${name}`)}`)
  }
  await client.end()
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

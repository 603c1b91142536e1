import pg from 'pg'
import { stackConfig } from '../stack/src/config.ts'
import { destroyCluster, initCluster, migrate, startDb } from '../stack/src/db.ts'
const config = stackConfig('schemas')
destroyCluster(config); initCluster(config); await startDb(config)
try {
  await migrate(config, () => {}, { seed: true })
  const db = new pg.Client({ connectionString: config.dbUrl }); await db.connect()
  const { rows } = await db.query(`select u.id, a.id as account_id, a.platform_id,
    (select s.id from public.scraping_campaigns s where s.user_id = u.id order by s.created_at limit 1) as scraping_id
    from auth.users u join public.social_accounts a on a.user_id = u.id where u.email = 'demo@reachflow.test' order by a.created_at limit 1`)
  const demo = rows[0]
  const n = (await db.query('select count(*)::int as n from public.campaigns where user_id = $1', [demo.id])).rows[0].n
  await db.query(`with c as (insert into public.campaigns (user_id, account_id, platform_id, name, sequences, schedule, status, daily_message_limit, target_count, messages_sent, total_attempts, response_count, industry, stage, message_template)
     select $1, $2, $3, 'Bench campaign ' || g, '{"messages":["Hi {name}"],"followUpEnabled":false,"followUpMessages":[],"followUpDays":3}'::jsonb,
      '{"timezone":"UTC","timeFrom":"09:00","timeTo":"17:00","activeDays":["monday","tuesday","wednesday","thursday","friday"]}'::jsonb,
      (array['draft','paused','completed','running'])[1 + g % 4], 50, 50, 40, 42, 4, 'SaaS', 'Outreach', 'Hi {name}' from generate_series(1, $4::int) g returning id)
    insert into public.campaign_leads (campaign_id, user_id, username, profile_data, last_sent_at, replied_at, collected_at)
    select c.id, $1, 'bench_' || left(c.id::text, 8) || '_' || g, jsonb_build_object('display_name', 'Bench Lead ' || g), case when g <= 40 then now() - g * interval '1 hour' end, case when g <= 4 then now() - g * interval '30 minutes' end, now() - g * interval '1 hour' from c cross join generate_series(1, 100) g`, [demo.id, demo.account_id, demo.platform_id, 50 - n])
  await db.query('analyze')
  await db.query(`select set_config('request.jwt.claims', $1, false)`, [JSON.stringify({ sub: demo.id, role: 'authenticated' })])
  await db.query('set role authenticated')
  const time = async (sql: string) => {
    for (let i = 0; i < 30; i++) await db.query(sql)
    const ms: number[] = []
    for (let i = 0; i < 300; i++) { const t = performance.now(); await db.query(sql); ms.push(performance.now() - t) }
    ms.sort((a, b) => a - b)
    return `median ${ms[150]!.toFixed(2)} ms, p95 ${ms[285]!.toFixed(2)} ms`
  }
  console.log('campaigns:', (await db.query('select count(*) from public.campaigns')).rows[0].count)
  console.log('dashboard_snapshot():', await time('select public.dashboard_snapshot()'))
  console.log('dashboard_summary():', await time('select * from public.dashboard_summary()'))
  await db.end()
} finally { destroyCluster(config) }

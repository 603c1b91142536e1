// The schema check (`npm run check:deploy`) must name every kind of drift between the schema files
// and the migrations. A database is built from supabase/schemas in the test cluster; each case
// changes one thing in a transaction, reads the catalog, rolls back, and expects the check's
// comparison to name exactly that object and fact.
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readCatalog } from '../scripts/db-schema/catalog.ts'
import { compareFacts, type Facts, facts } from '../scripts/db-schema/compare.ts'
import { createDatabaseFrom, schemaSources, withClient } from '../scripts/db-schema/databases.ts'
import { migrationBetween } from '../scripts/db-schema/diff.ts'
import { stackConfig } from '../stack/src/config.ts'

const config = stackConfig('test')
const DATABASE = 'schema_check_test'
const CHANGED = 'schema_check_changed'
let url: string
let built: Facts

beforeAll(async () => {
  url = await createDatabaseFrom(config, DATABASE, schemaSources())
  built = await withClient(url, async (client) => facts(await readCatalog(client)))
}, 120_000)

afterAll(async () => {
  await withClient(config.adminDbUrl, (admin) =>
    admin.query(`drop database if exists ${DATABASE} with (force)`),
  )
})

/** What the check reports when the migrations built `built` and the schema files what `change` leaves. */
async function drift(change: string): Promise<string[]> {
  return withClient(url, async (client: pg.Client) => {
    await client.query('begin')
    try {
      await client.query(change)
      const changed = facts(await readCatalog(client))
      return compareFacts(built, changed).map((d) => `${d.object}: ${d.problem.replace(/ \(.*$/s, '')}`)
    } finally {
      await client.query('rollback')
    }
  })
}

describe('the schema check', () => {
  it('finds nothing when both sides are the same', async () => {
    expect(await drift('select 1')).toEqual([])
  })

  it.each([
    [
      'a function body',
      `create or replace function internal.set_updated_at() returns trigger language plpgsql set search_path = ''
         as $$ begin new.updated_at := pg_catalog.now(); return new; end $$`,
      ['function internal.set_updated_at(): definition differs'],
    ],
    [
      "a function's attributes",
      'alter function internal.now() volatile',
      ['function internal.now(): definition differs'],
    ],
    [
      'a grant',
      'revoke execute on function internal.now() from reachflow_runner',
      ['function internal.now(): privileges differs'],
    ],
    [
      'a column grant',
      'revoke update (status) on public.campaigns from reachflow_runner',
      ['column public.campaigns.status: privileges differs'],
    ],
    [
      'a policy',
      'drop policy "Users can read their own profile" on public.user_profiles',
      ['policy public.user_profiles."Users can read their own profile": only in the migrations'],
    ],
    [
      'a column default',
      'alter table public.campaigns alter column daily_message_limit set default 40',
      ['column public.campaigns.daily_message_limit: default differs'],
    ],
    [
      'a column type',
      'alter table internal.legacy_proxy_credentials alter column username type varchar(300)',
      ['column internal.legacy_proxy_credentials.username: type differs'],
    ],
    [
      'a constraint',
      'alter table public.campaigns add constraint campaigns_stage_short check (char_length(stage) < 50)',
      ['constraint public.campaigns.campaigns_stage_short: only in the schema files'],
    ],
    [
      'an index',
      'drop index public.campaigns_due_idx',
      ['index public.campaigns_due_idx: only in the migrations'],
    ],
    [
      'row-level security',
      'alter table public.notifications disable row level security',
      ['table public.notifications: row level security differs'],
    ],
    [
      'a trigger',
      'alter table public.campaigns disable trigger campaigns_guard_status',
      ['trigger public.campaigns.campaigns_guard_status: enabled differs'],
    ],
    [
      "a view's definition",
      `do $$ begin
         execute 'create or replace view public.lead_view with (security_invoker = false, security_barrier = false) as '
           || rtrim(pg_get_viewdef('public.lead_view'::regclass), ';') || ' offset 0';
       end $$`,
      ['view public.lead_view: definition differs'],
    ],
    [
      'a comment',
      "comment on table public.campaigns is 'Changed.'",
      ['table public.campaigns: comment differs'],
    ],
  ])('names %s', async (_what, change, expected) => {
    expect(await drift(change)).toEqual(expected)
  })
})

describe('npm run db:diff', () => {
  it('writes SQL that takes the migrations to what the schema files say', async () => {
    // Edits a developer makes in the schema files: a new table (columns not in name order), a
    // column, a changed function, a column grant, a comment, a policy dropped.
    const edit = `
      create table public.campaign_notes (
        id uuid not null default gen_random_uuid(),
        campaign_id uuid not null references public.campaigns (id) on delete cascade,
        body text not null check (char_length(body) <= 500),
        constraint campaign_notes_pkey primary key (id)
      );
      alter table public.campaign_notes enable row level security;
      create policy "Users read notes of their campaigns" on public.campaign_notes for select to authenticated
        using (exists (select 1 from public.campaigns c where c.id = campaign_id and c.user_id = (select auth.uid())));
      revoke all on public.campaign_notes from anon;
      alter table public.campaigns add column note text;
      comment on column public.campaigns.note is 'A line the customer keeps about the campaign.';
      grant update (note) on public.campaigns to reachflow_runner;
      create or replace function internal.set_updated_at() returns trigger language plpgsql set search_path = ''
        as $$ begin new.updated_at := pg_catalog.clock_timestamp(); return new; end $$;
      drop policy "Users can read their own profile" on public.user_profiles;`
    const changedUrl = await createDatabaseFrom(config, CHANGED, [
      ...schemaSources(),
      { label: 'the edit', sql: edit },
    ])
    const { sql, remaining } = await migrationBetween(url, changedUrl)
    expect(remaining).toEqual([])
    expect(sql).toMatch(
      /CREATE TABLE "public"\."campaign_notes" \(\n\s+"id"[^\n]*\n\s+"campaign_id"[^\n]*\n\s+"body"/,
    )
    expect(sql).toContain('DROP POLICY "Users can read their own profile"')
  }, 120_000)
})

-- Platform packs: every fact the runner's adapters read about X and Instagram (paths, selectors,
-- markers, texts, regexes, page sizes) as one versioned JSON object per platform. The default is
-- in the runner's code (each runner registers its own at start, so operators can see it and
-- validate against its shape); operators may publish an override without a deploy, after it
-- passed the canary (20261127200200_platform_canary.sql). Runners read the latest publication.
-- Only the admin function (service role) and the runner reach these tables.

-- Tables ---------------------------------------------------------------------------------------

create table public.platform_packs (
  id uuid primary key default gen_random_uuid(),
  platform text not null references public.platforms (name) on update cascade,
  version text not null check (char_length(version) between 1 and 100),
  facts jsonb not null check (jsonb_typeof(facts) = 'object'),
  source text not null check (source in ('code', 'operator')),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- code defaults: the last time a runner started with it
  registered_at timestamptz,
  check ((source = 'code') = (registered_at is not null))
);

create unique index platform_packs_code_version_key on public.platform_packs (platform, version) where source = 'code';
create index platform_packs_platform_created_at_idx on public.platform_packs (platform, created_at desc);

comment on table public.platform_packs is
  'Versioned platform facts: code defaults registered by runners, and operator packs (tried on the canary, maybe published).';
comment on column public.platform_packs.facts is
  'The facts object the adapters read (its "version" is the version column). Operator packs have exactly the code default''s shape.';
comment on column public.platform_packs.source is 'code: a runner''s built-in default; operator: written in the admin tab.';

create table public.platform_pack_publications (
  id bigint generated always as identity primary key,
  platform text not null references public.platforms (name) on update cascade,
  -- null: back to the code default (whichever version the runners carry)
  pack_id uuid references public.platform_packs (id),
  kind text not null check (kind in ('publish', 'rollback')),
  published_by uuid references auth.users (id) on delete set null,
  published_at timestamptz not null default now(),
  -- what Roll back returns to: the publication in effect before this one (null: the code default);
  -- a rollback takes over its target's, so rolling back again goes further back, never in circles
  previous_publication_id bigint references public.platform_pack_publications (id),
  check (kind = 'rollback' or pack_id is not null)
);

create index platform_pack_publications_platform_id_idx on public.platform_pack_publications (platform, id desc);
create index platform_pack_publications_pack_id_idx on public.platform_pack_publications (pack_id);
create index platform_pack_publications_previous_idx on public.platform_pack_publications (previous_publication_id);

comment on table public.platform_pack_publications is
  'Which pack each platform runs, newest row wins (no row, or pack_id null: the code default). Rollbacks are rows too.';

-- Helper functions -----------------------------------------------------------------------------

create function internal.register_code_pack(p_platform text, p_version text, p_facts jsonb)
returns uuid
language sql
security definer
set search_path = ''
as $$
  -- A runner's default: one row per version (a later start with the same version refreshes it).
  insert into public.platform_packs as p (platform, version, facts, source, registered_at)
  values (p_platform, p_version, p_facts, 'code', now())
  on conflict (platform, version) where source = 'code'
  do update set facts = excluded.facts, registered_at = excluded.registered_at
  returning p.id
$$;
comment on function internal.register_code_pack(text, text, jsonb) is
  'Run by each runner at start: records its built-in facts for a platform (admin view, validation reference).';

create function internal.published_pack(p_platform text)
returns table (publication_id bigint, pack_id uuid, version text, facts jsonb, kind text, published_at timestamptz,
               published_by uuid)
language sql
stable
security definer
set search_path = ''
as $$
  -- The newest publication of the platform; pack_id null means "the code default".
  select pub.id, pub.pack_id, p.version, p.facts, pub.kind, pub.published_at, pub.published_by
    from public.platform_pack_publications pub
    left join public.platform_packs p on p.id = pub.pack_id
   where pub.platform = p_platform
   order by pub.id desc
   limit 1
$$;
comment on function internal.published_pack(text) is
  'The platform''s newest publication (pack null = code default); no row when nothing was ever published.';

create function internal.code_pack(p_platform text)
returns table (pack_id uuid, version text, facts jsonb, registered_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, p.version, p.facts, p.registered_at
    from public.platform_packs p
   where p.platform = p_platform and p.source = 'code'
   order by p.registered_at desc
   limit 1
$$;
comment on function internal.code_pack(text) is
  'The code default a runner registered last for the platform: the reference operator packs are validated against.';

-- Policies -------------------------------------------------------------------------------------

alter table public.platform_packs enable row level security;
alter table public.platform_pack_publications enable row level security;

create policy "The runner reads platform packs" on public.platform_packs
  for select to reachflow_runner using (true);
create policy "The runner reads pack publications" on public.platform_pack_publications
  for select to reachflow_runner using (true);

-- Grants ---------------------------------------------------------------------------------------

revoke all on public.platform_packs, public.platform_pack_publications from anon, authenticated;
grant all on public.platform_packs, public.platform_pack_publications to service_role;
grant select on public.platform_packs, public.platform_pack_publications to reachflow_runner;

revoke execute on function internal.register_code_pack(text, text, jsonb), internal.published_pack(text),
  internal.code_pack(text) from public;
grant execute on function internal.register_code_pack(text, text, jsonb) to reachflow_runner, service_role;
grant execute on function internal.published_pack(text), internal.code_pack(text) to reachflow_runner, service_role;

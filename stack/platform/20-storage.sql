-- The Supabase platform layer, part 3: the `storage` schema as supabase/storage creates it,
-- limited to what the gateway and our migrations use.

-- As hosted (supabase/postgres init-scripts/00000000000002-storage-schema.sql): the schema belongs to
-- supabase_admin, and the Storage server's role gets every privilege on it to create its tables.
create schema if not exists storage authorization supabase_admin;
alter schema storage owner to supabase_admin;
grant all on schema storage to supabase_storage_admin;
grant usage on schema storage to anon, authenticated, service_role, postgres;
-- Clusters set up before policy_grants existed had postgres own storage.objects: give it back.
do $$
begin
  if exists (select from pg_tables where schemaname = 'storage' and tablename = 'objects') then
    alter table storage.objects owner to supabase_storage_admin;
  end if;
end
$$;
-- Created by supabase_storage_admin, as the Storage server's own migrations do.
set local role supabase_storage_admin;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[]
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

grant all on storage.buckets, storage.objects to anon, authenticated, service_role, postgres;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role, postgres;
reset role;
-- As hosted, storage.objects stays supabase_storage_admin's: postgres creates, alters and drops its
-- policies through the policy_grants library (stack/platform/ext/policy_grants.c, supautils'
-- policy_grants on hosted), and may do nothing else an owner may.

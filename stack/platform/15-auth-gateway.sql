-- The Supabase platform layer, part 2b: the auth tables the local gateway needs beyond part 2,
-- named as supabase/auth (GoTrue) names them. Idempotent.

set local role supabase_auth_admin;

-- How each session was authenticated (password, oauth, recovery): the `amr` claim of its tokens.
create table if not exists auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid primary key,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);

create index if not exists flow_state_created_at_idx on auth.flow_state (created_at desc);
create index if not exists users_recovery_token_idx on auth.users (recovery_token) where recovery_token <> '';

grant all on auth.mfa_amr_claims to postgres;

-- auth.users columns the Auth server's migrations create that the gateway does not use yet: here
-- so SQL written against hosted (seeds, triggers, reads) finds the same table.
alter table auth.users add column if not exists phone_change_token varchar(255) default '';
alter table auth.users add column if not exists phone_change_sent_at timestamptz;
alter table auth.users add column if not exists email_change_token_current varchar(255) default '';
alter table auth.users add column if not exists email_change_confirm_status smallint default 0
  check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2);
alter table auth.users add column if not exists reauthentication_sent_at timestamptz;

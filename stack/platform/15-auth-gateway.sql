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

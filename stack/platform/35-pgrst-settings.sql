-- The Supabase platform layer, part 5: on hosted, supautils lets postgres configure the Data API with
-- `alter role authenticator set pgrst.<setting> = …` (then `notify pgrst, 'reload config'`). Plain
-- Postgres only lets a superuser set an unknown `pgrst.*` parameter on a role, so postgres gets SET on
-- each name PostgREST 14 reads (Config/Database.hs, dbSettingsNames), and nothing else.
grant set on parameter
  pgrst.db_aggregates_enabled, pgrst.db_anon_role, pgrst.db_pre_config, pgrst.db_extra_search_path,
  pgrst.db_max_rows, pgrst.db_plan_enabled, pgrst.db_pre_request, pgrst.db_prepared_statements,
  pgrst.db_root_spec, pgrst.db_schemas, pgrst.db_tx_end, pgrst.db_hoisted_tx_settings, pgrst.jwt_aud,
  pgrst.jwt_role_claim_key, pgrst.jwt_secret, pgrst.jwt_secret_is_base64, pgrst.jwt_cache_max_lifetime,
  pgrst.openapi_mode, pgrst.openapi_security_active, pgrst.openapi_server_proxy_uri,
  pgrst.server_cors_allowed_origins, pgrst.server_trace_header, pgrst.server_timing_enabled
to postgres;

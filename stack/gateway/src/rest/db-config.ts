// The in-database configuration PostgREST 14 reads (PostgREST.Config.Database.queryDbSettings): the
// `pgrst.*` settings of the role it connects as, `ALTER ROLE authenticator IN DATABASE … SET` taking
// priority over `ALTER ROLE authenticator SET`; a database-only `ALTER DATABASE … SET` has no effect.
// They override the environment (REST_* here, PGRST_* there), as PostgREST's db settings do.
import type pg from 'pg'

export interface RestConfig {
  schemas: string[]
  extraSearchPath: string[]
  maxRows: number
  aggregatesEnabled: boolean
  planEnabled: boolean
}

/** Every in-database setting name PostgREST 14 reads (Config/Database.hs, dbSettingsNames). */
export const DB_SETTING_NAMES = [
  'db_aggregates_enabled',
  'db_anon_role',
  'db_pre_config',
  'db_extra_search_path',
  'db_max_rows',
  'db_plan_enabled',
  'db_pre_request',
  'db_prepared_statements',
  'db_root_spec',
  'db_schemas',
  'db_tx_end',
  'db_hoisted_tx_settings',
  'jwt_aud',
  'jwt_role_claim_key',
  'jwt_secret',
  'jwt_secret_is_base64',
  'jwt_cache_max_lifetime',
  'openapi_mode',
  'openapi_security_active',
  'openapi_server_proxy_uri',
  'server_cors_allowed_origins',
  'server_trace_header',
  'server_timing_enabled',
]

/** The ones this gateway applies; the rest are read and reported as not applied. */
const APPLIED = new Set([
  'db_schemas',
  'db_extra_search_path',
  'db_max_rows',
  'db_aggregates_enabled',
  'db_plan_enabled',
])

// Role-and-database settings (setdatabase = this database) sort before role-wide ones (0).
const DB_SETTINGS = `
with role_setting as (
  select setdatabase as database, unnest(setconfig) as setting
  from pg_catalog.pg_db_role_setting
  where setrole = quote_ident(current_user)::regrole::oid
    and setdatabase in (0, (select oid from pg_catalog.pg_database where datname = current_catalog))
),
kv_settings as (
  select database, substr(setting, 1, strpos(setting, '=') - 1) as k, substr(setting, strpos(setting, '=') + 1) as v
  from role_setting
)
select distinct on (key) replace(k, 'pgrst.', '') as key, v as value
from kv_settings
where k = any($1) and v is not null
order by key, database desc nulls last`

export async function readDbSettings(client: pg.ClientBase): Promise<Map<string, string>> {
  const names = DB_SETTING_NAMES.map((name) => `pgrst.${name}`)
  const result = await client.query<{ key: string; value: string }>(DB_SETTINGS, [names])
  return new Map(result.rows.map((row) => [row.key, row.value]))
}

/** PostgREST's coerceBool: any casing of true/false (letters only), else a number > 0. */
export function settingBool(value: string): boolean | undefined {
  const letters = value.replace(/[^\p{L}]/gu, '').toLowerCase()
  if (letters === 'true') return true
  if (letters === 'false') return false
  return /^-?\d+$/.test(value.trim()) ? Number(value) > 0 : undefined
}

const commaList = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)

/** The environment's configuration with the database's settings applied over it. */
export function applyDbSettings(
  base: RestConfig,
  settings: Map<string, string>,
  warn: (message: string, meta: Record<string, unknown>) => void,
): RestConfig {
  const config = { ...base }
  const get = (name: string) => settings.get(name)
  const schemas = get('db_schemas')
  if (schemas !== undefined && commaList(schemas).length > 0) config.schemas = commaList(schemas)
  const extra = get('db_extra_search_path')
  if (extra !== undefined) config.extraSearchPath = commaList(extra)
  const maxRows = get('db_max_rows')
  if (maxRows !== undefined) {
    const n = /^\d+$/.test(maxRows.trim()) ? Number(maxRows) : undefined
    if (n === undefined) warn('pgrst.db_max_rows is not a whole number; ignored', { value: maxRows })
    else config.maxRows = n
  }
  for (const [name, key] of [
    ['db_aggregates_enabled', 'aggregatesEnabled'],
    ['db_plan_enabled', 'planEnabled'],
  ] as const) {
    const value = get(name)
    if (value === undefined) continue
    const flag = settingBool(value)
    if (flag === undefined) warn(`pgrst.${name} is not a boolean; ignored`, { value })
    else config[key] = flag
  }
  const ignored = [...settings.keys()].filter((name) => !APPLIED.has(name))
  if (ignored.length > 0)
    warn('pgrst settings read but not applied by the local gateway', { settings: ignored })
  return config
}

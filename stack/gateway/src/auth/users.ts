// auth.users and auth.identities: reading a user in the shape GoTrue answers with, creating and
// updating users. Passwords are bcrypt hashes made and checked by pgcrypto's crypt(), exactly as
// the seed writes them.
import { randomBytes, randomUUID } from 'node:crypto'
import type pg from 'pg'

type Db = pg.Pool | pg.PoolClient
type Json = Record<string, unknown>

export interface Identity {
  identity_id: string
  id: string
  user_id: string
  identity_data: Json
  provider: string
  last_sign_in_at: string | null
  created_at: string | null
  updated_at: string | null
  email: string | null
}

export interface User {
  id: string
  aud: string
  role: string
  email: string
  email_confirmed_at: string | null
  phone: string
  confirmed_at: string | null
  last_sign_in_at: string | null
  app_metadata: Json
  user_metadata: Json
  identities: Identity[]
  created_at: string | null
  updated_at: string | null
  is_anonymous: boolean
  banned_until?: string | null
}

const USER_SELECT = `
  select u.id, coalesce(u.aud, 'authenticated') as aud, coalesce(u.role, 'authenticated') as role,
         coalesce(u.email, '') as email, u.email_confirmed_at, coalesce(u.phone, '') as phone,
         u.confirmed_at, u.last_sign_in_at, coalesce(u.raw_app_meta_data, '{}') as app_metadata,
         coalesce(u.raw_user_meta_data, '{}') as user_metadata, u.created_at, u.updated_at,
         u.is_anonymous, u.banned_until,
         coalesce((select json_agg(json_build_object(
             'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id,
             'identity_data', i.identity_data, 'provider', i.provider,
             'last_sign_in_at', i.last_sign_in_at, 'created_at', i.created_at,
             'updated_at', i.updated_at, 'email', i.email) order by i.created_at)
           from auth.identities i where i.user_id = u.id), '[]') as identities
  from auth.users u`

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const isValidEmail = (email: string) => email.length <= 255 && EMAIL_PATTERN.test(email)

/** Users the client sees: without banned_until, which only the admin API shows. */
export function publicUser(user: User): User {
  const { banned_until: _banned, ...rest } = user
  return rest
}

export async function loadUser(db: Db, id: string): Promise<User | undefined> {
  const { rows } = await db.query<User>(`${USER_SELECT} where u.id = $1 and u.deleted_at is null`, [id])
  return rows[0]
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'select id from auth.users where lower(email) = $1 and is_sso_user = false and deleted_at is null',
    [normalizeEmail(email)],
  )
  return rows[0]?.id
}

const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/**
 * A bcrypt salt of the cost new passwords get (10, as GoTrue's bcrypt.DefaultCost): a password for
 * an unknown address, or an account without one, is hashed against it, so a wrong password costs
 * the same time whether or not the address has an account.
 */
const DUMMY_SALT = `$2a$10$${Array.from(randomBytes(22), (byte) => BCRYPT_ALPHABET[byte % 64]).join('')}`

/** The user id when the password matches the stored bcrypt hash; undefined otherwise. */
export async function checkPassword(db: Db, email: string, password: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string | null; ok: boolean }>(
    `with u as (
       select id, encrypted_password from auth.users
        where lower(email) = $1 and is_sso_user = false and deleted_at is null limit 1)
     select u.id,
            coalesce(extensions.crypt($2, coalesce(nullif(u.encrypted_password, ''), $3)) = u.encrypted_password, false) as ok
       from (select) one left join u on true`,
    [normalizeEmail(email), password, DUMMY_SALT],
  )
  const row = rows[0]
  return row?.ok && row.id ? row.id : undefined
}

export async function passwordMatches(db: Db, userId: string, password: string): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    `select coalesce(encrypted_password <> '' and encrypted_password = extensions.crypt($2, encrypted_password), false) as ok
       from auth.users where id = $1`,
    [userId, password],
  )
  return rows[0]?.ok ?? false
}

export interface NewUser {
  id?: string
  email: string
  password?: string
  userMetadata?: Json
  appMetadata?: Json
  provider: string
  providerId?: string
  identityData?: Json
  emailConfirmed: boolean
}

/** Inserts the user and its first identity; the caller runs it in a transaction. */
export async function insertUser(db: Db, input: NewUser): Promise<string> {
  const id = input.id ?? randomUUID()
  const email = normalizeEmail(input.email)
  const appMetadata = { provider: input.provider, providers: [input.provider], ...input.appMetadata }
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token,
       email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       case when $3::text is null then '' else extensions.crypt($3, extensions.gen_salt('bf', 10)) end,
       case when $4 then now() end, $5, $6, now(), now(), '', '', '', '')`,
    [id, email, input.password ?? null, input.emailConfirmed, appMetadata, input.userMetadata ?? {}],
  )
  await insertIdentity(db, id, input.provider, input.providerId ?? id, {
    sub: input.providerId ?? id,
    email,
    email_verified: input.emailConfirmed,
    phone_verified: false,
    ...input.identityData,
  })
  return id
}

export async function insertIdentity(
  db: Db,
  userId: string,
  provider: string,
  providerId: string,
  data: Json,
): Promise<void> {
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, $4, now(), now(), now())
     on conflict (provider_id, provider) do update set identity_data = excluded.identity_data,
       last_sign_in_at = now(), updated_at = now()`,
    [providerId, userId, data, provider],
  )
  await db.query(
    `update auth.users set raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'), '{providers}',
       (select coalesce(jsonb_agg(distinct p), '[]') from (
          select jsonb_array_elements_text(coalesce(raw_app_meta_data -> 'providers', '[]')) as p
          union select $2::text) providers))
     where id = $1`,
    [userId, provider],
  )
}

/**
 * Merges `patch` into a metadata object as GoTrue does: keys set to null are removed, others replace.
 * Runs in SQL so concurrent updates of different keys do not overwrite each other.
 */
export async function mergeMetadata(
  db: Db,
  userId: string,
  column: 'raw_user_meta_data' | 'raw_app_meta_data',
  patch: Json,
): Promise<void> {
  const removed = Object.keys(patch).filter((key) => patch[key] === null)
  const kept = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null))
  await db.query(
    `update auth.users set ${column} = (coalesce(${column}, '{}') || $2::jsonb) - $3::text[], updated_at = now()
     where id = $1`,
    [userId, kept, removed],
  )
}

export async function setPassword(db: Db, userId: string, password: string): Promise<void> {
  await db.query(
    `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf', 10)),
       updated_at = now() where id = $1`,
    [userId, password],
  )
}

export async function setEmail(db: Db, userId: string, email: string): Promise<void> {
  await db.query(
    `update auth.users set email = $2, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
     where id = $1`,
    [userId, normalizeEmail(email)],
  )
  await db.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId, normalizeEmail(email)],
  )
}

export const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

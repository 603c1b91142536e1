// Grants and revokes that take an object from the privileges it is created with (or had before) to
// the ones it has: `revoke execute on function … from public, anon; grant execute … to service_role`.
import type { Column, Grant } from './catalog.ts'
import type { Quote } from './sql-text.ts'

const key = (g: Grant) => `${g.grantee}\u0000${g.privilege}`
const granteeName = (quote: Quote, grantee: string) => (grantee === '' ? 'public' : quote(grantee))

/** Privilege names in the order PostgreSQL documents them. */
const ORDER = [
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'TRUNCATE',
  'REFERENCES',
  'TRIGGER',
  'EXECUTE',
  'USAGE',
  'CREATE',
]
const byOrder = (a: string, b: string) => ORDER.indexOf(a) - ORDER.indexOf(b)

/** Groups grantees that get the same privileges, so one statement names them together. */
function grouped(entries: Map<string, Set<string>>): { privileges: string[]; grantees: string[] }[] {
  const groups = new Map<string, string[]>()
  for (const [grantee, privileges] of [...entries].sort(([a], [b]) => a.localeCompare(b))) {
    const list = [...privileges].sort(byOrder).join(', ')
    groups.set(list, [...(groups.get(list) ?? []), grantee])
  }
  return [...groups].map(([list, grantees]) => ({ privileges: list.split(', '), grantees }))
}

/**
 * `target` is e.g. `on function internal.now()` or `on public.campaigns`; `all` is every privilege
 * the object type has, so revoking all of them reads `revoke all`.
 */
export function aclStatements(
  quote: Quote,
  target: string,
  from: Grant[],
  to: Grant[],
  all: string[],
  owner: string,
): string[] {
  const wanted = new Map(to.map((g) => [key(g), g]))
  const had = new Map(from.map((g) => [key(g), g]))
  const revoke = new Map<string, Set<string>>()
  const revokeOption = new Map<string, Set<string>>()
  const grant = new Map<string, Set<string>>()
  const grantOption = new Map<string, Set<string>>()
  const put = (map: Map<string, Set<string>>, g: Grant) =>
    map.set(g.grantee, (map.get(g.grantee) ?? new Set()).add(g.privilege))
  for (const [k, g] of had) {
    if (g.grantee === owner) continue
    const now = wanted.get(k)
    if (!now) put(revoke, g)
    else if (g.grantable && !now.grantable) put(revokeOption, g)
  }
  for (const [k, g] of wanted) {
    if (g.grantee === owner) continue
    const before = had.get(k)
    if (!before || (g.grantable && !before.grantable)) put(g.grantable ? grantOption : grant, g)
  }
  const names = (grantees: string[]) => grantees.map((g) => granteeName(quote, g)).join(', ')
  const list = (privileges: string[]) =>
    privileges.length === all.length && all.length > 1 ? 'all' : privileges.join(', ').toLowerCase()
  const statements: string[] = []
  for (const { privileges, grantees } of grouped(revoke))
    statements.push(`revoke ${list(privileges)} ${target} from ${names(grantees)};`)
  for (const { privileges, grantees } of grouped(revokeOption))
    statements.push(`revoke grant option for ${list(privileges)} ${target} from ${names(grantees)};`)
  for (const { privileges, grantees } of grouped(grant))
    statements.push(`grant ${list(privileges)} ${target} to ${names(grantees)};`)
  for (const { privileges, grantees } of grouped(grantOption))
    statements.push(`grant ${list(privileges)} ${target} to ${names(grantees)} with grant option;`)
  return statements
}

export const TABLE_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']
export const SEQUENCE_PRIVILEGES = ['SELECT', 'UPDATE', 'USAGE']

/** Column privileges: `grant update (a, b) on public.t to role`, one statement per privilege and grantee. */
export function columnGrants(quote: Quote, table: string, columns: Column[]): string[] {
  const byGrant = new Map<string, string[]>()
  for (const column of columns)
    for (const g of column.acl) {
      const id = `${g.privilege}\u0000${g.grantee}\u0000${g.grantable}`
      byGrant.set(id, [...(byGrant.get(id) ?? []), quote(column.name)])
    }
  return [...byGrant]
    .map(([id, names]) => {
      const [privilege = '', grantee = '', grantable] = id.split('\u0000')
      const option = grantable === 'true' ? ' with grant option' : ''
      return `grant ${privilege.toLowerCase()} (${names.join(', ')}) on ${table} to ${granteeName(quote, grantee)}${option};`
    })
    .sort()
}

// Turns a catalog into named facts ("function public.f(uuid)" → {definition, owner, acl, comment})
// and lists where two catalogs disagree, naming the object and the fact.
import type { Catalog, Grant } from './catalog.ts'

export type Facts = Map<string, Record<string, string>>

const aclText = (acl: Grant[]) =>
  acl
    .map((g) => `${g.grantee || 'PUBLIC'}:${g.privilege}${g.grantable ? '*' : ''}`)
    .sort()
    .join(' ')
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value))

const RELATION_KINDS: Record<string, string> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized view',
  S: 'sequence',
  f: 'foreign table',
}

export function facts(catalog: Catalog): Facts {
  const out: Facts = new Map()
  const add = (key: string, values: Record<string, unknown>) => {
    if (out.has(key)) throw new Error(`two catalog objects share the name "${key}"`)
    out.set(key, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, text(v)])))
  }
  for (const s of catalog.schemas)
    add(`schema ${s.name}`, { owner: s.owner, privileges: aclText(s.acl), comment: s.comment })
  for (const e of catalog.extensions) add(`extension ${e.name}`, { schema: e.schema })
  for (const t of catalog.types)
    add(`type ${t.schema}.${t.name}`, {
      definition: `${t.kind} ${t.definition}`,
      owner: t.owner,
      privileges: aclText(t.acl),
      comment: t.comment,
    })
  for (const r of catalog.relations) {
    const name = `${r.schema}.${r.name}`
    add(`${RELATION_KINDS[r.kind] ?? r.kind} ${name}`, {
      kind: r.kind,
      options: r.options.join(','),
      unlogged: r.unlogged,
      'row level security': r.rls ? `enabled${r.forceRls ? ', forced' : ''}` : 'disabled',
      'partition key': r.partitionKey,
      'partition of': r.partitionOf ? `${r.partitionOf} ${r.partitionBound}` : '',
      definition: r.viewDefinition,
      sequence: r.sequence,
      'owned by': r.sequenceOwnedBy,
      owner: r.owner,
      privileges: aclText(r.acl),
      comment: r.comment,
      'column order': r.columns.map((c) => c.name).join(', '),
    })
    for (const c of r.columns)
      add(`column ${name}.${c.name}`, {
        type: c.type,
        'not null': c.notNull,
        default: c.default,
        identity: c.identity,
        generated: c.generated,
        collation: c.collation,
        privileges: aclText(c.acl),
        comment: c.comment,
      })
  }
  for (const c of catalog.constraints)
    add(`constraint ${c.schema}.${c.table}.${c.name}`, { definition: c.definition, comment: c.comment })
  for (const i of catalog.indexes)
    add(`index ${i.schema}.${i.name}`, { definition: i.definition, comment: i.comment })
  for (const f of catalog.functions)
    add(`function ${f.signature}`, {
      definition: f.definition,
      owner: f.owner,
      privileges: aclText(f.acl),
      comment: f.comment,
    })
  for (const t of catalog.triggers)
    add(`trigger ${t.schema}.${t.table}.${t.name}`, {
      definition: t.definition,
      enabled: t.enabled,
      comment: t.comment,
    })
  for (const p of catalog.policies)
    add(`policy ${p.schema}.${p.table}."${p.name}"`, {
      permissive: p.permissive,
      command: p.command,
      roles: p.roles.join(', '),
      using: p.using,
      'with check': p.check,
      comment: p.comment,
    })
  for (const r of catalog.rules) add(`rule ${r.schema}.${r.table}.${r.name}`, { definition: r.definition })
  for (const d of catalog.defaultAcls)
    add(`default privileges of ${d.role} in ${d.schema || 'every schema'} on ${d.objectType}`, {
      privileges: aclText(d.acl),
    })
  for (const e of catalog.eventTriggers)
    add(`event trigger ${e.name}`, {
      event: e.event,
      function: e.function,
      enabled: e.enabled,
      tags: e.tags.join(','),
    })
  return out
}

export interface Difference {
  object: string
  problem: string
}

/** A one-line summary of where two texts part (first differing line), for long definitions. */
function whereTheyDiffer(a: string, b: string): string {
  if (!a.includes('\n') && !b.includes('\n') && a.length + b.length < 300) return `"${a}" / "${b}"`
  const left = a.split('\n')
  const right = b.split('\n')
  const at = left.findIndex((line, i) => line !== right[i])
  const line = at < 0 ? left.length : at
  return `first difference at line ${line + 1}: "${(left[line] ?? '').trim()}" / "${(right[line] ?? '').trim()}"`
}

/** Everything `wanted` (e.g. the migrations' database) has that `actual` (the schema files') lacks or has otherwise. */
export function compareFacts(
  wanted: Facts,
  actual: Facts,
  names = { wanted: 'migrations', actual: 'schema files' },
): Difference[] {
  const differences: Difference[] = []
  for (const [object, values] of wanted) {
    const other = actual.get(object)
    if (!other) {
      differences.push({ object, problem: `only in the ${names.wanted}` })
      continue
    }
    for (const [fact, value] of Object.entries(values)) {
      if (other[fact] !== value)
        differences.push({
          object,
          problem: `${fact} differs (${names.wanted} / ${names.actual}: ${whereTheyDiffer(value, other[fact] ?? '')})`,
        })
    }
  }
  for (const object of actual.keys())
    if (!wanted.has(object)) differences.push({ object, problem: `only in the ${names.actual}` })
  return differences.sort((a, b) => a.object.localeCompare(b.object))
}

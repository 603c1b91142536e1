// One object's SQL as the schema files show it: the deparsed catalog text, in lowercase, with the
// object's comments beside it.
import type { Column, Constraint, Func, Index, Policy, Relation, Trigger, TypeDef } from './catalog.ts'
import { dollarTag, literal, lowerSql, type Quote, qualified } from './sql-text.ts'

export function commentOn(what: string, comment: string | null): string[] {
  if (comment === null) return []
  const text = literal(comment)
  return [`comment on ${what} is${what.length + text.length > 90 ? '\n  ' : ' '}${text};`]
}

function columnLine(quote: Quote, column: Column): string {
  const parts = [quote(column.name), column.type]
  if (column.collation) parts.push(`collate ${quote(column.collation)}`)
  if (column.generated === 's') parts.push(`generated always as (${lowerSql(column.default ?? '')}) stored`)
  if (column.identity)
    parts.push(`generated ${column.identity === 'a' ? 'always' : 'by default'} as identity`)
  if (column.notNull) parts.push('not null')
  if (column.default !== null && column.generated !== 's') parts.push(`default ${lowerSql(column.default)}`)
  return parts.join(' ')
}

export const constraintLine = (quote: Quote, c: Constraint) =>
  `constraint ${quote(c.name)} ${lowerSql(c.definition)}`

const CONSTRAINT_ORDER = ['p', 'u', 'x', 'c', 'f', 't']

/** `create table` with its columns and the constraints given, then the comments on them. */
export function createTable(quote: Quote, r: Relation, constraints: Constraint[]): string {
  const name = qualified(quote, r.schema, r.name)
  const body = r.partitionOf
    ? `create table ${name} partition of ${r.partitionOf} ${lowerSql(r.partitionBound ?? '')}`
    : `create ${r.unlogged ? 'unlogged ' : ''}table ${name} (\n  ${[
        ...r.columns.map((c) => columnLine(quote, c)),
        ...[...constraints]
          .sort(
            (a, b) =>
              CONSTRAINT_ORDER.indexOf(a.type) - CONSTRAINT_ORDER.indexOf(b.type) ||
              a.name.localeCompare(b.name),
          )
          .map((c) => constraintLine(quote, c)),
      ].join(',\n  ')}\n)`
  const partition = r.partitionKey ? ` partition by ${lowerSql(r.partitionKey)}` : ''
  const options = r.options.length > 0 ? ` with (${r.options.join(', ')})` : ''
  return [
    `${body}${partition}${options};`,
    ...commentOn(`table ${name}`, r.comment),
    ...r.columns.flatMap((c) => commentOn(`column ${name}.${quote(c.name)}`, c.comment)),
    ...constraints.flatMap((c) => commentOn(`constraint ${quote(c.name)} on ${name}`, c.comment)),
  ].join('\n')
}

export function addConstraint(quote: Quote, c: Constraint): string {
  const table = qualified(quote, c.schema, c.table)
  return [
    `alter table ${table} add ${constraintLine(quote, c)};`,
    ...commentOn(`constraint ${quote(c.name)} on ${table}`, c.comment),
  ].join('\n')
}

export function createSequence(quote: Quote, r: Relation): string {
  const name = qualified(quote, r.schema, r.name)
  const owned = r.sequenceOwnedBy ? `\nalter sequence ${name} owned by ${r.sequenceOwnedBy};` : ''
  return [`create sequence ${name} ${r.sequence};${owned}`, ...commentOn(`sequence ${name}`, r.comment)].join(
    '\n',
  )
}

export function createView(quote: Quote, r: Relation): string {
  const name = qualified(quote, r.schema, r.name)
  const options = r.options.length > 0 ? ` with (${r.options.join(', ')})` : ''
  const kind = r.kind === 'm' ? 'materialized view' : 'view'
  const definition = lowerSql(r.viewDefinition ?? '')
    .replace(/;\s*$/, '')
    .split('\n')
    .map((line) => line.replace(/^ /, ''))
    .join('\n  ')
  return [
    `create ${kind} ${name}${options} as\n  ${definition};`,
    ...commentOn(`${kind} ${name}`, r.comment),
    ...r.columns.flatMap((c) => commentOn(`column ${name}.${quote(c.name)}`, c.comment)),
  ].join('\n')
}

export function createIndex(quote: Quote, i: Index): string {
  const definition = lowerSql(i.definition.replace(/ USING btree \(/, ' ('))
  return [`${definition};`, ...commentOn(`index ${qualified(quote, i.schema, i.name)}`, i.comment)].join('\n')
}

export function createType(quote: Quote, t: TypeDef): string {
  const name = qualified(quote, t.schema, t.name)
  const body =
    t.kind === 'e'
      ? `create type ${name} as enum (${t.definition});`
      : t.kind === 'd'
        ? `create domain ${name} as ${lowerSql(t.definition)};`
        : `create type ${name} as (${t.definition});`
  return [body, ...commentOn(`${t.kind === 'd' ? 'domain' : 'type'} ${name}`, t.comment)].join('\n')
}

/**
 * pg_get_functiondef's text with its header in lowercase and the body between `$$` (or another tag
 * when the body holds `$$`). The body is the stored source, byte for byte.
 */
export function createFunction(quote: Quote, f: Func): string {
  const match = /^AS (\$[A-Za-z_0-9]*\$)/m.exec(f.definition)
  let text: string
  if (!match) text = `${f.definition.trimEnd()};`
  else {
    const tag = match[1] as string
    const header = f.definition.slice(0, match.index)
    const start = match.index + match[0].length
    const body = f.definition.slice(start, f.definition.lastIndexOf(tag))
    const newTag = dollarTag(body)
    const headerLines = lowerSql(header)
      .split('\n')
      .map((line) => line.trim().replace(/^set (\w+) to /, 'set $1 = '))
      .filter(Boolean)
    text = `${headerLines.join('\n')}\nas ${newTag}${body}${newTag};`
  }
  const kind = f.kind === 'p' ? 'procedure' : 'function'
  const target = `${kind} ${qualified(quote, f.schema, f.name)}(${f.signature.slice(f.signature.indexOf('(') + 1, -1)})`
  return [text, ...commentOn(target, f.comment)].join('\n')
}

export function createTrigger(quote: Quote, t: Trigger): string {
  const table = qualified(quote, t.schema, t.table)
  const enabled: Record<string, string> = { D: 'disable', R: 'enable replica', A: 'enable always' }
  const state = enabled[t.enabled]
    ? [`alter table ${table} ${enabled[t.enabled]} trigger ${quote(t.name)};`]
    : []
  return [
    `${lowerSql(t.definition)};`,
    ...state,
    ...commentOn(`trigger ${quote(t.name)} on ${table}`, t.comment),
  ].join('\n')
}

const COMMANDS: Record<string, string> = { r: 'select', a: 'insert', w: 'update', d: 'delete', '*': 'all' }

export function createPolicy(quote: Quote, p: Policy): string {
  const table = qualified(quote, p.schema, p.table)
  const lines = [`create policy ${quote(p.name)} on ${table}`]
  if (!p.permissive) lines.push('  as restrictive')
  lines.push(`  for ${COMMANDS[p.command] ?? p.command}`)
  lines.push(`  to ${p.roles.map((r) => (r === 'public' ? 'public' : quote(r))).join(', ')}`)
  if (p.using !== null) lines.push(`  using (${lowerSql(p.using)})`)
  if (p.check !== null) lines.push(`  with check (${lowerSql(p.check)})`)
  return [`${lines.join('\n')};`, ...commentOn(`policy ${quote(p.name)} on ${table}`, p.comment)].join('\n')
}

export function rowLevelSecurity(quote: Quote, r: Relation): string[] {
  const table = qualified(quote, r.schema, r.name)
  return [
    ...(r.rls ? [`alter table ${table} enable row level security;`] : []),
    ...(r.forceRls ? [`alter table ${table} force row level security;`] : []),
  ]
}

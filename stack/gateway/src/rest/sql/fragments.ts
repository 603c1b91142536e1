// SQL text building blocks: quoted identifiers, bind parameters and column expressions.
// Input only ever reaches SQL as a bind parameter; names are quoted after the schema cache knew them.
import { RestError } from '../errors.ts'
import type { FieldRef } from '../parse/types.ts'

export function ident(name: string): string {
  if (name.includes('\u0000')) throw new RestError(400, 'PGRST100', 'Names may not contain a NUL character')
  return `"${name.replace(/"/g, '""')}"`
}

export function qualifiedIdent(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`
}

/** A literal for catalog-sourced text only (column names in jsonb_build_object). */
export function catalogLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}

export class Params {
  readonly values: unknown[] = []
  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/**
 * A LIMIT or OFFSET count. A parsed non-negative integer goes into the SQL text, as PostgREST writes
 * it: with the count as a bind parameter Postgres cannot cost a cached generic plan (it assumes a
 * tenth of the table), so it keeps planning every execution of a prepared statement afresh, which
 * cost about as much as running the query. Anything else stays a parameter.
 */
export function rowCount(value: number, params: Params): string {
  return Number.isSafeInteger(value) && value >= 0 ? String(value) : params.add(value)
}

/** `"alias"."col"->$1::text->>$2::int`: the JSON keys travel as parameters too. */
export function columnExpr(alias: string, field: FieldRef, params: Params): string {
  let sql = `${ident(alias)}.${ident(field.name)}`
  for (const step of field.path) {
    sql += `${step.arrow}${params.add(step.index ? Number(step.key) : step.key)}::${step.index ? 'int' : 'text'}`
  }
  return sql
}

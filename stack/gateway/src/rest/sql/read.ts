// SELECT statements for a read plan: one statement answers the whole request, embeds being lateral
// subqueries (row_to_json for to-one, json_agg for to-many) and the total count a scalar subquery.

import type { OrderTerm } from '../parse/types.ts'
import type { EmbedNode, ReadNode } from '../plan.ts'
import { isToOne } from '../relationships.ts'
import { conditionSql } from './conditions.ts'
import { columnExpr, ident, type Params, rowCount } from './fragments.ts'

/** The child rows' link to their parent row (and the junction join for many-to-many). */
function parentLink(
  embed: EmbedNode,
  parentAlias: string,
  junctionAlias: string,
): { join: string; where: string[] } {
  const rel = embed.relationship
  const child = ident(embed.node.alias)
  const parent = ident(parentAlias)
  if (rel.cardinality === 'm2m' && rel.junction) {
    const j = ident(junctionAlias)
    const junction = rel.junction
    const on = junction.targetColumns
      .map(([jc, tc]) => `${j}.${ident(jc)} = ${child}.${ident(tc)}`)
      .join(' AND ')
    return {
      join: ` JOIN ${ident(junction.relation.schema)}.${ident(junction.relation.name)} AS ${j} ON ${on}`,
      where: junction.sourceColumns.map(([jc, oc]) => `${j}.${ident(jc)} = ${parent}.${ident(oc)}`),
    }
  }
  return { join: '', where: rel.columns.map(([oc, tc]) => `${child}.${ident(tc)} = ${parent}.${ident(oc)}`) }
}

/** Output keys of a node, needed where a to-many spread lists its columns one by one. */
export function outputKeys(node: ReadNode): string[] {
  const keys: string[] = []
  if (node.star) keys.push(...(node.columns ? [...node.columns.keys()] : []))
  for (const field of node.fields) keys.push(field.key)
  for (const embed of node.embeds) {
    if (embed.empty) continue
    if (embed.spread) keys.push(...outputKeys(embed.node))
    else keys.push(embed.key)
  }
  return keys
}

/** The column a hoisted aggregate's value travels in, out of the spread's subquery. */
const hoistedKey = (key: string) => `_gwh_${key}`

const castSql = (expr: string, type: string | undefined) => (type ? `CAST(${expr} AS ${type})` : expr)

/**
 * The select list and, for a node with aggregates, its GROUP BY: every other selected column, the
 * columns `*` stands for, and the embeds (as jsonb, which has equality, as PostgREST embeds them).
 */
function selectList(node: ReadNode, params: Params): { items: string[]; groupBy: string[] } {
  const alias = ident(node.alias)
  const items: string[] = []
  const groupBy: string[] = []
  const grouped = node.aggregated
  if (node.star) {
    items.push(`${alias}.*`)
    if (grouped) for (const name of node.columns?.keys() ?? []) groupBy.push(`${alias}.${ident(name)}`)
  }
  for (const field of node.fields) {
    if (field.hoisted) {
      // The parent aggregates this value; `count()` needs none (it counts the spread's rows).
      if (field.field.name !== '*')
        items.push(
          `${castSql(columnExpr(node.alias, field.field, params), field.cast)} AS ${ident(hoistedKey(field.key))}`,
        )
      continue
    }
    if (field.aggregate) {
      const argument =
        field.field.name === '*' ? '*' : castSql(columnExpr(node.alias, field.field, params), field.cast)
      items.push(
        `${castSql(`${field.aggregate.toUpperCase()}(${argument})`, field.aggregateCast)} AS ${ident(field.key)}`,
      )
      continue
    }
    const expr = castSql(columnExpr(node.alias, field.field, params), field.cast)
    items.push(`${expr} AS ${ident(field.key)}`)
    if (grouped) groupBy.push(expr)
  }
  const json = grouped ? '::jsonb' : ''
  for (const embed of node.embeds) {
    if (embed.empty) continue
    const lateral = ident(embed.lateral)
    const values: string[] = []
    if (isToOne(embed.relationship)) {
      if (embed.spread && embed.node.fields.some((f) => f.hoisted)) {
        for (const key of outputKeys(embed.node)) {
          const hoisted = embed.node.fields.find((f) => f.hoisted && f.key === key)
          if (!hoisted?.aggregate) {
            items.push(`${lateral}.${ident(key)}`)
            values.push(`${lateral}.${ident(key)}`)
            continue
          }
          const argument =
            hoisted.field.name === '*' ? `${lateral}.*` : `${lateral}.${ident(hoistedKey(key))}`
          items.push(
            `${castSql(`${hoisted.aggregate.toUpperCase()}(${argument})`, hoisted.aggregateCast)} AS ${ident(key)}`,
          )
        }
      } else if (embed.spread) {
        items.push(`${lateral}.*`)
        for (const key of outputKeys(embed.node)) values.push(`${lateral}.${ident(key)}`)
      } else {
        items.push(`row_to_json(${lateral}.*)${json} AS ${ident(embed.key)}`)
        values.push(`row_to_json(${lateral}.*)${json}`)
      }
    } else if (embed.spread) {
      for (const key of outputKeys(embed.node)) {
        items.push(`COALESCE(${lateral}.${ident(key)}, '[]'::json)${json} AS ${ident(key)}`)
        values.push(`COALESCE(${lateral}.${ident(key)}, '[]'::json)${json}`)
      }
    } else {
      items.push(`COALESCE(${lateral}."v", '[]'::json)${json} AS ${ident(embed.key)}`)
      values.push(`COALESCE(${lateral}."v", '[]'::json)${json}`)
    }
    if (grouped) groupBy.push(...values)
  }
  return { items, groupBy }
}

function lateralJoin(embed: EmbedNode, parent: ReadNode, params: Params, countOnly: boolean): string {
  const lateral = ident(embed.lateral)
  const inner = embed.joinType === 'inner'
  const rows = rowSelect(embed.node, params, { embed, parentAlias: parent.alias, countOnly })
  if (isToOne(embed.relationship))
    return ` ${inner ? 'INNER' : 'LEFT'} JOIN LATERAL (${rows}) AS ${lateral} ON TRUE`
  let aggregate: string
  let present: string
  if (embed.spread && countOnly) {
    aggregate = 'count(*) AS "n"'
    present = `${lateral}."n" > 0`
  } else if (embed.spread) {
    const keys = outputKeys(embed.node)
    aggregate = ['count(*) AS "n"', ...keys.map((k) => `json_agg(_gwc.${ident(k)}) AS ${ident(k)}`)].join(
      ', ',
    )
    present = `${lateral}."n" > 0`
  } else {
    aggregate = 'json_agg(_gwc.*) AS "v"'
    present = `${lateral}."v" IS NOT NULL`
  }
  return ` ${inner ? 'INNER' : 'LEFT'} JOIN LATERAL (SELECT ${aggregate} FROM (${rows}) AS _gwc) AS ${lateral} ON ${inner ? present : 'TRUE'}`
}

function orderSql(node: ReadNode, terms: OrderTerm[], params: Params): string {
  if (terms.length === 0) return ''
  const parts = terms.map((term) => {
    let expr: string
    if (term.relation !== undefined) {
      const embed =
        node.embeds.find((e) => e.key === term.relation) ?? node.embeds.find((e) => e.name === term.relation)
      expr = columnExpr(embed?.lateral ?? node.alias, term.field, params)
    } else {
      expr = columnExpr(node.alias, term.field, params)
    }
    const direction = term.direction ? ` ${term.direction.toUpperCase()}` : ''
    const nulls = term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : ''
    return `${expr}${direction}${nulls}`
  })
  return ` ORDER BY ${parts.join(', ')}`
}

interface RowSelectOptions {
  embed?: EmbedNode
  parentAlias?: string
  /** For the count: `SELECT 1`, only the joins filters need, no order or range. */
  countOnly?: boolean
  extraWhere?: string[]
}

export function rowSelect(node: ReadNode, params: Params, options: RowSelectOptions = {}): string {
  const { countOnly = false } = options
  const link =
    options.embed && options.parentAlias !== undefined
      ? parentLink(options.embed, options.parentAlias, `${options.embed.lateral}j`)
      : { join: '', where: [] }
  const embeds = countOnly ? node.embeds.filter((e) => e.filtering) : node.embeds
  const { items: select, groupBy } = countOnly ? { items: ['1'], groupBy: [] } : selectList(node, params)
  const joins = embeds.map((embed) => lateralJoin(embed, node, params, countOnly)).join('')
  const where = [
    ...link.where,
    ...(options.extraWhere ?? []),
    ...node.conditions.map((tree) => conditionSql(node, tree, params)),
  ]
  let sql = `SELECT ${select.join(', ')} FROM ${node.from} AS ${ident(node.alias)}${link.join}${joins}`
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`
  if (groupBy.length > 0) sql += ` GROUP BY ${groupBy.join(', ')}`
  if (!countOnly) {
    sql += orderSql(node, node.order, params)
    if (node.limit !== undefined) sql += ` LIMIT ${rowCount(node.limit, params)}`
    if (node.offset > 0) sql += ` OFFSET ${rowCount(node.offset, params)}`
  }
  return sql
}

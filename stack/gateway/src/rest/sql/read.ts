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

function selectList(node: ReadNode, params: Params): string[] {
  const alias = ident(node.alias)
  const items: string[] = []
  if (node.star) items.push(`${alias}.*`)
  for (const field of node.fields) {
    const expr = columnExpr(node.alias, field.field, params)
    items.push(`${field.cast ? `CAST(${expr} AS ${field.cast})` : expr} AS ${ident(field.key)}`)
  }
  for (const embed of node.embeds) {
    if (embed.empty) continue
    const lateral = ident(embed.lateral)
    if (isToOne(embed.relationship)) {
      items.push(embed.spread ? `${lateral}.*` : `row_to_json(${lateral}.*) AS ${ident(embed.key)}`)
    } else if (embed.spread) {
      for (const key of outputKeys(embed.node))
        items.push(`COALESCE(${lateral}.${ident(key)}, '[]'::json) AS ${ident(key)}`)
    } else {
      items.push(`COALESCE(${lateral}."v", '[]'::json) AS ${ident(embed.key)}`)
    }
  }
  return items
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
  const select = countOnly ? ['1'] : selectList(node, params)
  const joins = embeds.map((embed) => lateralJoin(embed, node, params, countOnly)).join('')
  const where = [
    ...link.where,
    ...(options.extraWhere ?? []),
    ...node.conditions.map((tree) => conditionSql(node, tree, params)),
  ]
  let sql = `SELECT ${select.join(', ')} FROM ${node.from} AS ${ident(node.alias)}${link.join}${joins}`
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`
  if (!countOnly) {
    sql += orderSql(node, node.order, params)
    if (node.limit !== undefined) sql += ` LIMIT ${rowCount(node.limit, params)}`
    if (node.offset > 0) sql += ` OFFSET ${rowCount(node.offset, params)}`
  }
  return sql
}

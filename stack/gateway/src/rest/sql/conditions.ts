// Filters and logic trees as SQL, every value a bind parameter.

import type { Filter, LogicTree, Operation } from '../parse/types.ts'
import type { ReadNode } from '../plan.ts'
import { embedNamed } from '../plan.ts'
import { isToOne } from '../relationships.ts'
import { columnExpr, ident, type Params } from './fragments.ts'

const OPERATORS: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
  isdistinct: 'IS DISTINCT FROM',
}

const TSQUERY: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
}

const IS_SQL = { null: 'NULL', not_null: 'NOT NULL', true: 'TRUE', false: 'FALSE', unknown: 'UNKNOWN' }

/** `{"a","b,c"}`: a Postgres array literal for `= ANY($n)`. */
function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`
}

function operationSql(node: ReadNode, filter: Filter, operation: Operation, params: Params): string {
  const column = columnExpr(node.alias, filter.field, params)
  switch (operation.op) {
    case 'in':
      return operation.values.length === 0
        ? 'FALSE'
        : `${column} = ANY(${params.add(arrayLiteral(operation.values))})`
    case 'is':
      return `${column} IS ${IS_SQL[operation.value]}`
    case 'fts':
    case 'plfts':
    case 'phfts':
    case 'wfts': {
      const language =
        operation.language === undefined ? undefined : `${params.add(operation.language)}::regconfig`
      const target = node.columns?.get(filter.field.name) ?? node.relation?.computed.get(filter.field.name)
      const isVector = target?.isTsvector && filter.field.path.length === 0
      const vector = isVector ? column : `to_tsvector(${language ? `${language}, ` : ''}${column})`
      return `${vector} @@ ${TSQUERY[operation.op]}(${language ? `${language}, ` : ''}${params.add(operation.value)})`
    }
    default: {
      const sqlOperator = OPERATORS[operation.op] as string
      const pattern = operation.op === 'like' || operation.op === 'ilike'
      const value = pattern ? operation.value.replace(/\*/g, '%') : operation.value
      if (operation.quantifier)
        return `${column} ${sqlOperator} ${operation.quantifier.toUpperCase()}(${params.add(value)})`
      return `${column} ${sqlOperator} ${params.add(value)}`
    }
  }
}

/** `rel=is.null` / `rel=not.is.null`: whether the embed found rows (anti/semi join). */
function embedNullSql(node: ReadNode, filter: Filter): string | undefined {
  if (filter.field.path.length > 0 || node.columns?.has(filter.field.name)) return undefined
  const embed = embedNamed(node, filter.field.name)
  if (!embed || filter.expr.operation.op !== 'is') return undefined
  const wantsNull = filter.expr.operation.value === 'null'
  const present = isToOne(embed.relationship)
    ? `${ident(embed.lateral)} IS DISTINCT FROM NULL`
    : embed.spread
      ? `${ident(embed.lateral)}."n" > 0`
      : `${ident(embed.lateral)}."v" IS NOT NULL`
  return wantsNull ? `NOT (${present})` : present
}

export function conditionSql(node: ReadNode, tree: LogicTree, params: Params): string {
  if (tree.kind === 'logic') {
    const joined = tree.children
      .map((child) => conditionSql(node, child, params))
      .join(` ${tree.operator.toUpperCase()} `)
    return tree.negated ? `NOT (${joined})` : `(${joined})`
  }
  const { filter } = tree
  const embedSql = embedNullSql(node, filter)
  const sql = embedSql ?? operationSql(node, filter, filter.expr.operation, params)
  return filter.expr.negated ? `NOT (${sql})` : sql
}

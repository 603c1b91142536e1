// The read plan: the select tree resolved against the schema cache (relationships for embeds, known
// columns), with filters, logic trees, order and ranges attached to the node they belong to.
import { RestError, undefinedColumn } from './errors.ts'
import type {
  AggregateFunction,
  FieldRef,
  JoinType,
  LogicTree,
  OrderTerm,
  SelectItem,
} from './parse/types.ts'
import { findRelationship, isToOne, type Relationship } from './relationships.ts'
import type { Column, Relation, SchemaCache } from './schema-cache.ts'

export interface FieldItem {
  kind: 'field'
  field: FieldRef
  key: string
  cast?: string
  aggregate?: AggregateFunction
  aggregateCast?: string
  /** In a to-one spread: the aggregate is applied by the parent (PostgREST's hoisting). */
  hoisted?: boolean
}

export interface EmbedNode {
  key: string
  name: string
  alias?: string
  relationship: Relationship
  joinType: JoinType
  spread: boolean
  /** `rel()`: joined for filtering only, not in the output. */
  empty: boolean
  lateral: string
  /** Used by an `is.null` filter or `!inner`, so the count query must join it too. */
  filtering: boolean
  node: ReadNode
}

export interface ReadNode {
  /** The relation's name, as PostgREST's own messages name it. */
  name: string
  /**
   * What Postgres calls this node in its errors (`column <scope>.x does not exist`): the table for
   * the request's root, PostgREST's alias `<table>_<depth>` for an embed. Defaults to `name`.
   */
  scope?: string
  alias: string
  /** The FROM item without alias, e.g. `"public"."t"` or a function call. */
  from: string
  /** Known output columns of `from`; undefined when unknown (no checks then). */
  columns?: Map<string, Column>
  relation?: Relation
  star: boolean
  fields: FieldItem[]
  /** Some field is an aggregate: the other selected columns and embeds become the GROUP BY. */
  aggregated: boolean
  embeds: EmbedNode[]
  conditions: LogicTree[]
  order: OrderTerm[]
  limit?: number
  offset: number
}

export class AliasCounter {
  private n = 0
  next(prefix: string): string {
    return `${prefix}${this.n++}`
  }
}

const isKnownField = (node: ReadNode, name: string) =>
  !node.columns || node.columns.has(name) || node.relation?.computed.has(name) === true

/** A column, or a computed field (a function of the row type, which Postgres resolves by name). */
function checkColumn(node: ReadNode, name: string): void {
  if (!isKnownField(node, name)) throw undefinedColumn(node.scope ?? node.name, name)
}

/**
 * PostgREST's alias for an embedded table (Plan.hs addRels: `<foreign table>_<depth>`), so that the
 * errors Postgres raises about it read the same. An alias Postgres would truncate (over 63 bytes)
 * could meet its parent's: then a private one is used.
 */
function embedAlias(table: string, depth: number, counter: AliasCounter): string {
  const alias = `${table}_${depth}`
  return Buffer.byteLength(alias) <= 63 ? alias : counter.next('_gw')
}

/** The same field selected again (`select=id,id`): PostgREST's JSON repeats the key, a client keeps one. */
const sameField = (a: FieldItem, b: FieldItem) =>
  a.key === b.key &&
  a.cast === b.cast &&
  a.aggregate === b.aggregate &&
  a.aggregateCast === b.aggregateCast &&
  JSON.stringify(a.field) === JSON.stringify(b.field)

function checkType(cache: SchemaCache, type: string): string {
  const normalized = type.toLowerCase().replace(/\s+/g, ' ').trim()
  if (!/^[a-z_][a-z0-9_$]*( [a-z_][a-z0-9_$]*)*$/.test(normalized) || !cache.typeNames.has(normalized))
    throw new RestError(400, '42704', `type "${type}" does not exist`)
  return normalized
}

/** Deeper embeds are refused: each level is a lateral subquery Postgres must plan. */
const MAX_EMBED_DEPTH = 32

/** Builds the node for `relation` (or a function's result) with its select items. */
export function buildReadTree(
  cache: SchemaCache,
  base: Omit<ReadNode, 'star' | 'fields' | 'aggregated' | 'embeds' | 'conditions' | 'order' | 'offset'>,
  items: SelectItem[],
  counter: AliasCounter,
  depth = 0,
  /** Unknown selected columns: Postgres reports them only after PostgREST's plan checks passed. */
  deferred: RestError[] = [],
): ReadNode {
  if (depth > MAX_EMBED_DEPTH)
    throw new RestError(
      400,
      'PGRST100',
      'Embedded resources are nested too deeply',
      `The limit is ${MAX_EMBED_DEPTH} levels`,
    )
  const node: ReadNode = {
    ...base,
    star: false,
    fields: [],
    aggregated: false,
    embeds: [],
    conditions: [],
    order: [],
    offset: 0,
  }
  for (const item of items) {
    if (item.kind === 'star') {
      node.star = true
      continue
    }
    if (item.kind === 'field') {
      // `rel(count)`, `select=count`: PostgREST selects `"<alias>"."count"`, which Postgres reads as
      // count(<alias>) when there is no such column (functional notation): a row count that needs
      // no db_aggregates_enabled and adds no GROUP BY (mixed with columns, Postgres refuses it).
      const rowCount =
        item.field.name === 'count' &&
        item.field.path.length === 0 &&
        !item.aggregate &&
        !isKnownField(node, 'count')
      if (!rowCount && !(item.aggregate === 'count' && item.field.name === '*')) {
        try {
          checkColumn(node, item.field.name)
        } catch (error) {
          deferred.push(error as RestError)
        }
      }
      // An aggregate without alias is keyed as Postgres names the column: `sum`, `count`, …
      const key =
        item.aggregate && item.alias === undefined ? item.aggregate : outputKeyOf(item.field, item.alias)
      const field: FieldItem = rowCount
        ? {
            kind: 'field',
            field: { name: '*', path: [] },
            key,
            aggregate: 'count',
            ...(item.cast && { aggregateCast: checkType(cache, item.cast) }),
          }
        : {
            kind: 'field',
            field: item.field,
            key,
            ...(item.cast && { cast: checkType(cache, item.cast) }),
            ...(item.aggregate && { aggregate: item.aggregate }),
            ...(item.aggregateCast && { aggregateCast: checkType(cache, item.aggregateCast) }),
          }
      if (node.fields.some((known) => sameField(known, field))) continue
      claimKey(node, key)
      node.fields.push(field)
      if (item.aggregate) node.aggregated = true
      continue
    }
    if (!node.relation) {
      throw new RestError(
        400,
        'PGRST200',
        `Could not find a relationship between '${node.name}' and '${item.name}' in the schema cache`,
      )
    }
    const relationship = findRelationship(cache.relationships, node.relation, item.name, item.hint)
    const target = relationship.foreignTable
    const { computed } = relationship
    const alias = embedAlias(target.name, depth + 1, counter)
    const child = buildReadTree(
      cache,
      {
        name: target.name,
        alias,
        scope: alias,
        // A computed relationship's rows are its function called with the parent row (PostgREST's fromF).
        from: computed
          ? `${quote(computed.schema)}.${quote(computed.name)}(${quote(node.alias)}::${quote(relationship.table.schema)}.${quote(relationship.table.name)})`
          : `${quote(target.schema)}.${quote(target.name)}`,
        columns: target.columns,
        relation: target,
      },
      item.children,
      counter,
      depth + 1,
      deferred,
    )
    if (item.spread && isToOne(relationship) && child.aggregated) {
      // Aggregates in a to-one spread are hoisted to this level (Plan.hs applySpreadAggHoisting):
      // the spread row only supplies the values, this node aggregates and groups.
      for (const field of child.fields) if (field.aggregate) field.hoisted = true
      child.aggregated = false
      node.aggregated = true
    }
    const key = item.alias ?? item.name
    if (!item.spread) claimKey(node, key, `${node.name}_${item.name}_${depth + 1}`)
    node.embeds.push({
      key,
      name: item.name,
      ...(item.alias !== undefined && { alias: item.alias }),
      relationship,
      joinType: item.joinType ?? 'left',
      spread: item.spread,
      empty: item.children.length === 0,
      lateral: counter.next('_gwl'),
      filtering: item.joinType === 'inner',
      node: child,
    })
  }
  if (depth === 0) {
    checkAggregates(node, cache.config.aggregatesEnabled)
    if (deferred[0]) throw deferred[0]
  }
  return node
}

/**
 * PostgREST's validateAggFunctions (after the whole tree resolved): aggregates anywhere need
 * `pgrst.db_aggregates_enabled`; inside a to-many spread they are not implemented (Plan.hs).
 */
function checkAggregates(node: ReadNode, enabled: boolean): void {
  if (node.aggregated && !enabled)
    throw new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed')
  for (const embed of node.embeds) {
    if (embed.spread && !isToOne(embed.relationship) && hasAggregates(embed.node))
      throw new RestError(
        400,
        'PGRST127',
        'Feature not implemented',
        'Aggregates are not implemented for one-to-many or many-to-many spreads.',
      )
    checkAggregates(embed.node, enabled)
  }
}

function hasAggregates(node: ReadNode): boolean {
  return node.aggregated || node.embeds.some((e) => e.spread && hasAggregates(e.node))
}

/**
 * Two selected items with one output key would give the JSON object duplicate keys, of which
 * clients keep one: silent data loss. PostgREST fails an unaliased embed named twice with
 * Postgres's 42712 on its lateral alias (`table name "<table>_<embed>_<depth>" specified more than
 * once`, PostgREST/postgrest#2529); any other repeated key is refused with 42701.
 */
function claimKey(node: ReadNode, key: string, embedAlias?: string): void {
  const embedClash = node.embeds.some((e) => !e.spread && e.key === key)
  if (embedAlias !== undefined && embedClash)
    throw new RestError(400, '42712', `table name "${embedAlias}" specified more than once`)
  if (embedClash || node.fields.some((f) => f.key === key))
    throw new RestError(400, '42701', `column "${key}" specified more than once`)
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

function outputKeyOf(field: FieldRef, alias?: string): string {
  if (alias !== undefined) return alias
  const last = field.path.at(-1)
  return last ? last.key : field.name
}

/** The node an embed path (`a.b`) names, by alias, or by name when the embed has no alias. */
export function nodeAt(root: ReadNode, path: string[]): ReadNode {
  let node = root
  for (const segment of path) {
    const byKey = node.embeds.find((e) => e.key === segment)
    if (byKey) {
      node = byKey.node
      continue
    }
    const aliased = node.embeds.find((e) => e.name === segment && e.alias !== undefined)
    if (aliased?.alias !== undefined) {
      throw new RestError(
        400,
        'PGRST108',
        `'${segment}' is not an embedded resource in this request`,
        'Target names are not allowed in filters if they have an alias',
        `Change '${segment}' to '${aliased.alias}' in filters, orders or limits.`,
      )
    }
    throw new RestError(
      400,
      'PGRST108',
      `'${segment}' is not an embedded resource in this request`,
      null,
      `Verify that '${segment}' is included in the 'select' query parameter.`,
    )
  }
  return node
}

/** The embed a filter field names (`rel=is.null`), if any. */
export function embedNamed(node: ReadNode, name: string): EmbedNode | undefined {
  return (
    node.embeds.find((e) => e.key === name) ??
    node.embeds.find((e) => e.alias === undefined && e.name === name)
  )
}

/** Checks a condition's columns and marks embeds it tests for null. */
export function attachCondition(node: ReadNode, tree: LogicTree): void {
  visit(tree)
  node.conditions.push(tree)

  function visit(t: LogicTree): void {
    if (t.kind === 'logic') {
      for (const child of t.children) visit(child)
      return
    }
    const { field, expr } = t.filter
    const embed = field.path.length === 0 ? embedNamed(node, field.name) : undefined
    if (embed && !node.columns?.has(field.name)) {
      if (
        expr.operation.op !== 'is' ||
        (expr.operation.value !== 'null' && expr.operation.value !== 'not_null')
      )
        throw new RestError(
          400,
          'PGRST120',
          `Bad operator on the '${field.name}' embedded resource`,
          'Only is null or not is null filters are allowed on embedded resources',
        )
      embed.filtering = true
      return
    }
    checkColumn(node, field.name)
  }
}

export function attachOrder(node: ReadNode, terms: OrderTerm[]): void {
  for (const term of terms) {
    if (term.relation !== undefined) {
      const embed = embedNamed(node, term.relation)
      if (!embed) {
        throw new RestError(
          400,
          'PGRST108',
          `'${term.relation}' is not an embedded resource in this request`,
          null,
          `Verify that '${term.relation}' is included in the 'select' query parameter.`,
        )
      }
      if (!isToOne(embed.relationship))
        throw new RestError(
          400,
          'PGRST118',
          `A related order on '${term.relation}' is not possible`,
          `'${node.name}' and '${term.relation}' do not form a many-to-one or one-to-one relationship`,
        )
      checkColumn(embed.node, term.field.name)
    } else {
      checkColumn(node, term.field.name)
    }
  }
  node.order = terms
}

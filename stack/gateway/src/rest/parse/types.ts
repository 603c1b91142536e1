// The parsed forms of PostgREST's query grammar (select, filters, logic trees, order).

export type JsonStep = { arrow: '->' | '->>'; key: string; index: boolean }

/** A column, possibly followed by a JSON path: `data->a->>b`. */
export interface FieldRef {
  name: string
  path: JsonStep[]
}

export type AggregateFunction = 'sum' | 'avg' | 'count' | 'max' | 'min'

export interface SelectField {
  kind: 'field'
  /** `count()` is the field `*` with the aggregate `count`. */
  field: FieldRef
  alias?: string
  cast?: string
  aggregate?: AggregateFunction
  /** `amount.avg()::int`: the cast applied to the aggregate's result. */
  aggregateCast?: string
}

export interface SelectStar {
  kind: 'star'
}

export type JoinType = 'inner' | 'left'

export interface SelectEmbed {
  kind: 'embed'
  name: string
  alias?: string
  hint?: string
  joinType?: JoinType
  spread: boolean
  children: SelectItem[]
}

export type SelectItem = SelectField | SelectStar | SelectEmbed

export type IsValue = 'null' | 'not_null' | 'true' | 'false' | 'unknown'
export type Quantifier = 'any' | 'all'
export type FtsOperator = 'fts' | 'plfts' | 'phfts' | 'wfts'
export type SimpleOperator =
  | 'eq'
  | 'neq'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'like'
  | 'ilike'
  | 'match'
  | 'imatch'
  | 'cs'
  | 'cd'
  | 'ov'
  | 'sl'
  | 'sr'
  | 'nxr'
  | 'nxl'
  | 'adj'
  | 'isdistinct'

export type Operation =
  | { op: SimpleOperator; value: string; quantifier?: Quantifier }
  | { op: 'in'; values: string[] }
  | { op: 'is'; value: IsValue }
  | { op: FtsOperator; value: string; language?: string }

export interface OpExpr {
  negated: boolean
  operation: Operation
}

export interface Filter {
  field: FieldRef
  expr: OpExpr
}

export type LogicTree =
  | { kind: 'filter'; filter: Filter }
  | { kind: 'logic'; negated: boolean; operator: 'and' | 'or'; children: LogicTree[] }

export interface OrderTerm {
  /** Set for a related order `rel(col)`: the embed the column belongs to. */
  relation?: string
  field: FieldRef
  direction?: 'asc' | 'desc'
  nulls?: 'first' | 'last'
}

// An exposed table or view as the schema cache holds it: its columns, key and computed fields.
import type { ColumnRow } from './catalog.ts'

export interface Column extends ColumnRow {
  isTsvector: boolean
}

export interface Relation {
  oid: number
  schema: string
  name: string
  kind: string
  isView: boolean
  columns: Map<string, Column>
  columnList: Column[]
  primaryKey: string[]
  /** Computed fields: functions of this relation's row type, usable like columns (`alias.fn`). */
  computed: Map<string, Column>
}

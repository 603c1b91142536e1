// The runner's row types, from the generated database types (the source web and functions use too).
// The generated types describe rows as the data API sends them (JSON); pg hands some values over
// otherwise, so each reader states those columns in `Exact`: timestamps and dates arrive as Date,
// a jsonb column the SQL keeps in one shape gets that shape, a column the checks keep to a few
// values gets those values, and a set-returning function's column the SQL may leave null says so.
import type { Database } from '@reachflow/db'

type Relations = Database['public']['Tables'] & Database['public']['Views']
type InternalFunctions = Database['internal']['Functions']

/** Some columns of a table or view as pg returns them. */
export type TableRow<
  T extends keyof Relations,
  Columns extends keyof Relations[T]['Row'],
  Exact extends object = object,
> = Omit<Pick<Relations[T]['Row'], Columns>, keyof Exact> & Exact

/** A row of a set-returning function in `internal` (the runner calls them over SQL). */
export type InternalRow<
  F extends keyof InternalFunctions,
  Exact extends object = object,
> = InternalFunctions[F]['Returns'] extends (infer Row)[] ? Omit<Row, keyof Exact> & Exact : never

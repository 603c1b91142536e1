// A whole transaction as one extended-protocol batch: Parse/Bind/Describe/Execute for every
// statement and a single Sync, written at once. Postgres answers everything in one flush, so a request
// costs one round trip, one write and (usually) one read on each side. Named statements are parsed
// once per connection and reused.
import pg from 'pg'

export interface BatchStep {
  text: string
  values: unknown[]
  /** Name of a prepared statement to reuse on this connection; unnamed statements are parsed each time. */
  name?: string
  /** Keep every value as Postgres's text (EXPLAIN's JSON exactly as printed). */
  rawText?: boolean
}

export interface BatchResult {
  command: string
  rows: Record<string, unknown>[]
}

interface FieldDescription {
  name: string
  dataTypeID: number
}

interface Connection {
  stream: { cork(): void; uncork(): void }
  parse(query: { name: string; text: string; types: number[] }): void
  bind(config: { portal: string; statement: string; values: (string | null)[] }): void
  describe(config: { type: 'P'; name: string }): void
  execute(config: { portal: string; rows: number }): void
  sync(): void
  on(event: 'parseComplete', listener: () => void): void
  off(event: 'parseComplete', listener: () => void): void
}

/** Statement names parsed on each connection. */
const preparedNames = new WeakMap<object, Set<string>>()

const textValue = (value: unknown): string | null => {
  if (value === null || value === undefined) return null
  return typeof value === 'string' ? value : String(value)
}

type Parser = (text: string) => unknown

const asText: Parser = (text) => text

export class TransactionBatch {
  readonly done: Promise<BatchResult[]>
  private resolve!: (results: BatchResult[]) => void
  private reject!: (error: Error) => void
  private readonly results: BatchResult[] = []
  private parsers: { name: string; parse: Parser }[] = []
  private current: Record<string, unknown>[] = []
  private connection: Connection | undefined
  private parsedCount = 0
  private parseSteps: string[] = []
  private listening = false
  private readonly onParseComplete = () => {
    this.parsedCount++
  }
  /** Set by pg's client.query(); unused, completion goes through `done`. */
  callback: unknown

  constructor(private readonly steps: BatchStep[]) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
  }

  submit(connection: Connection): void {
    this.connection = connection
    let prepared = preparedNames.get(connection)
    if (!prepared) {
      prepared = new Set()
      preparedNames.set(connection, prepared)
    }
    // Counting ParseCompletes tells which named statements now exist, should a later step fail.
    const parsesNamed = this.steps.some((step) => step.name && !prepared.has(step.name))
    if (parsesNamed) connection.on('parseComplete', this.onParseComplete)
    this.listening = parsesNamed
    connection.stream.cork()
    try {
      for (const step of this.steps) {
        const name = step.name ?? ''
        if (!name || !prepared.has(name)) {
          connection.parse({ name, text: step.text, types: [] })
          this.parseSteps.push(name)
        }
        connection.bind({ portal: '', statement: name, values: step.values.map(textValue) })
        connection.describe({ type: 'P', name: '' })
        connection.execute({ portal: '', rows: 0 })
      }
      connection.sync()
    } finally {
      connection.stream.uncork()
    }
  }

  /** Named statements whose Parse succeeded are prepared on this connection from now on. */
  private settlePrepared(): void {
    const connection = this.connection
    if (!connection || !this.listening) return
    this.listening = false
    connection.off('parseComplete', this.onParseComplete)
    const prepared = preparedNames.get(connection)
    for (const name of this.parseSteps.slice(0, this.parsedCount)) if (name) prepared?.add(name)
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    // Each step's description arrives before its CommandComplete, so the step is the next result's.
    const raw = this.steps[this.results.length]?.rawText === true
    this.parsers = message.fields.map((field) => ({
      name: field.name,
      parse: raw ? asText : (pg.types.getTypeParser(field.dataTypeID, 'text') as Parser),
    }))
    this.current = []
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const row: Record<string, unknown> = {}
    for (let i = 0; i < this.parsers.length; i++) {
      const parser = this.parsers[i] as { name: string; parse: Parser }
      const value = message.fields[i]
      row[parser.name] = value === null || value === undefined ? null : parser.parse(value)
    }
    this.current.push(row)
  }

  handleCommandComplete(message: { text: string }): void {
    this.results.push({ command: message.text.split(' ')[0] ?? '', rows: this.current })
    this.current = []
    this.parsers = []
  }

  handleEmptyQuery(): void {
    this.results.push({ command: '', rows: [] })
  }

  handleError(error: Error): void {
    this.settlePrepared()
    this.reject(error)
  }

  handleReadyForQuery(): void {
    this.settlePrepared()
    this.resolve(this.results)
  }

  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

// Small text helpers for rendering SQL the way the migrations are written (lowercase keywords).

/**
 * Lowercases what PostgreSQL's deparser prints in capitals (keywords, type names), leaving string
 * literals, quoted identifiers and dollar-quoted text alone. Safe for deparsed SQL: an unquoted
 * identifier is always lowercase there, so capitals outside quotes are keywords.
 */
export function lowerSql(sql: string): string {
  let out = ''
  let i = 0
  while (i < sql.length) {
    const ch = sql[i] as string
    if (ch === "'" || ch === '"') {
      let j = i + 1
      while (j < sql.length) {
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) j += 2
          else break
        } else j++
      }
      out += sql.slice(i, j + 1)
      i = j + 1
    } else if (ch === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0]
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length)
        const stop = end < 0 ? sql.length : end + tag.length
        out += sql.slice(i, stop)
        i = stop
      } else {
        out += ch
        i++
      }
    } else {
      out += ch.toLowerCase()
      i++
    }
  }
  return out
}

export const literal = (value: string) => `'${value.replaceAll("'", "''")}'`

/** A dollar-quote tag that does not occur in `body`. */
export function dollarTag(body: string): string {
  if (!body.includes('$$')) return '$$'
  for (let n = 0; ; n++) {
    const tag = `$${n === 0 ? 'fn' : `fn${n}`}$`
    if (!body.includes(tag)) return tag
  }
}

/** PostgreSQL's quote_ident for the names the catalog returns, filled in from the database. */
export type Quote = (name: string) => string

export function qualified(quote: Quote, schema: string, name: string): string {
  return `${quote(schema)}.${quote(name)}`
}

/** Wraps a comma-separated list onto lines no longer than `width`, continuing with `indent`. */
export function wrapList(items: string[], width = 100, indent = '  '): string {
  const lines: string[] = []
  let line = ''
  for (const item of items) {
    const next = line ? `${line}, ${item}` : item
    if (line && next.length > width) {
      lines.push(`${line},`)
      line = item
    } else line = next
  }
  if (line) lines.push(line)
  return lines.join(`\n${indent}`)
}

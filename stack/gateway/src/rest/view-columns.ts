// Which table column each view column comes from, read from the view's stored query tree
// (pg_rewrite.ev_action, a pg_node_tree): its top-level target list records resorigtbl/resorigcol,
// the same origin Postgres reports to clients. PostgREST uses it to give views their tables' FKs.

type NodeValue = string | null | NodeValue[] | { type: string; fields: Record<string, NodeValue[]> }

class NodeTreeReader {
  private pos = 0
  constructor(private readonly text: string) {}

  private skipSpaces(): void {
    while (this.pos < this.text.length && /\s/.test(this.text.charAt(this.pos))) this.pos++
  }

  private token(): string {
    let out = ''
    while (this.pos < this.text.length) {
      const ch = this.text.charAt(this.pos)
      if (/\s/.test(ch) || ch === '(' || ch === ')' || ch === '{' || ch === '}') break
      if (ch === '\\') {
        out += this.text.charAt(this.pos + 1)
        this.pos += 2
        continue
      }
      out += ch
      this.pos++
    }
    return out
  }

  value(): NodeValue {
    this.skipSpaces()
    const ch = this.text.charAt(this.pos)
    if (ch === '(') {
      this.pos++
      const items: NodeValue[] = []
      for (;;) {
        this.skipSpaces()
        if (this.pos >= this.text.length) return items
        if (this.text.charAt(this.pos) === ')') {
          this.pos++
          return items
        }
        items.push(this.value())
      }
    }
    if (ch === '{') {
      this.pos++
      const type = this.token()
      const fields: Record<string, NodeValue[]> = {}
      let key = ''
      for (;;) {
        this.skipSpaces()
        if (this.pos >= this.text.length) break
        const next = this.text.charAt(this.pos)
        if (next === '}') {
          this.pos++
          break
        }
        if (next === ':') {
          this.pos++
          key = this.token()
          fields[key] = []
          continue
        }
        const value = this.value()
        fields[key]?.push(value)
      }
      return { type, fields }
    }
    if (this.text.startsWith('<>', this.pos)) {
      this.pos += 2
      return null
    }
    return this.token()
  }
}

export interface ViewColumnOrigin {
  column: string
  table: number
  attnum: number
}

/** The columns of a view that are plain references to a table (or view) column. */
export function viewColumnOrigins(definition: string): ViewColumnOrigin[] {
  let tree: NodeValue
  try {
    tree = new NodeTreeReader(definition).value()
  } catch {
    return []
  }
  const query = Array.isArray(tree) ? tree[0] : tree
  if (!query || typeof query !== 'object' || Array.isArray(query) || query.type !== 'QUERY') return []
  const targets = query.fields.targetList?.[0]
  if (!Array.isArray(targets)) return []
  const origins: ViewColumnOrigin[] = []
  for (const entry of targets) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry) || entry.type !== 'TARGETENTRY') continue
    const field = (name: string) => {
      const value = entry.fields[name]?.[0]
      return typeof value === 'string' ? value : undefined
    }
    const table = Number(field('resorigtbl'))
    const attnum = Number(field('resorigcol'))
    const column = field('resname')
    if (field('resjunk') === 'true' || !column || !table || !attnum) continue
    origins.push({ column, table, attnum })
  }
  return origins
}

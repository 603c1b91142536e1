// A schema file's text from its rendered statements: the sections in the style guide's order, each
// object's statements together.

export const SECTIONS = [
  'Schemas and types',
  "Functions the tables' checks and defaults call",
  'Tables',
  'Indexes',
  'Triggers',
  'Helper functions',
  'Views',
  'Row-level security',
  'Grants',
  'RPCs',
] as const
export type Section = (typeof SECTIONS)[number]

/** A statement and the object it belongs to: one object's statements stay together. */
interface Statement {
  text: string
  group: string
}
export type FileSections = Map<Section, Statement[]>

/**
 * Statements of one object together (in the order its first one came). A one-line statement follows
 * its object's previous one directly; multi-line statements and objects are set apart by a blank
 * line, except runs of one-line grants.
 */
function sectionText(section: Section, statements: Statement[]): string {
  const order = new Map<string, number>()
  const size = new Map<string, number>()
  for (const s of statements) {
    if (!order.has(s.group)) order.set(s.group, order.size)
    size.set(s.group, (size.get(s.group) ?? 0) + 1)
  }
  const sorted = statements
    .map((s, index) => ({ ...s, index }))
    .sort((a, b) => (order.get(a.group) ?? 0) - (order.get(b.group) ?? 0) || a.index - b.index)
  const oneLine = (s: Statement) => !s.text.includes('\n')
  const single = (s: Statement) => size.get(s.group) === 1 && oneLine(s)
  return sorted
    .map((s, i) => {
      const previous = sorted[i - 1]
      if (!previous) return s.text
      const tight =
        s.group === previous.group ? oneLine(s) : section === 'Grants' && single(s) && single(previous)
      return `${tight ? '\n' : '\n\n'}${s.text}`
    })
    .join('')
}

/** A file's text: its kept head (opening comment and preamble), then the sections that have content. */
export function fileText(head: string, sections: FileSections | undefined): string {
  const parts = [head.trimEnd()]
  for (const section of SECTIONS) {
    const statements = sections?.get(section)
    if (!statements?.length) continue
    parts.push(`${`-- ${section} `.padEnd(100, '-')}\n\n${sectionText(section, statements)}`)
  }
  return `${parts.join('\n\n')}\n`
}

import { describe, expect, it } from 'vitest'
import { csvFilename, toCsv } from './csv'

describe('CSV export', () => {
  it('quotes every field, escapes quotes and defuses formulas, also after a separator', () => {
    const csv = toCsv(
      [{ a: 'x, "y"', b: '=HYPERLINK()', c: null, d: 'Sam;=1+1' }],
      [
        { header: 'A', value: (r) => r.a },
        { header: 'B', value: (r) => r.b },
        { header: 'C', value: (r) => r.c },
        { header: 'D', value: (r) => r.d },
      ],
    )
    expect(csv).toBe(`"A","B","C","D"\r\n"x, ""y""","'=HYPERLINK()","","Sam;'=1+1"\r\n`)
    expect(csvFilename('leads', new Date('2026-11-22T10:00:00Z'))).toBe('reachflow-leads-2026-11-22.csv')
  })
})

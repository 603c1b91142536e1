import { describe, expect, it } from 'vitest'
import { csvField, csvLine, parseCsv, readImport, readUsername } from './dnc-csv'

describe('do-not-contact CSV import', () => {
  it('parses quoted fields, doubled quotes, line breaks inside quotes, CRLF, a BOM and ; files', () => {
    expect(parseCsv('\uFEFFusername,reason\r\n"ana","said ""no"", twice"\r\nben,"line\nbreak"\n')).toEqual([
      ['username', 'reason'],
      ['ana', 'said "no", twice'],
      ['ben', 'line\nbreak'],
    ])
    expect(parseCsv('username;platform\nana;instagram')).toEqual([
      ['username', 'platform'],
      ['ana', 'instagram'],
    ])
  })

  it('reads @names and profile links, with the platform the link names', () => {
    expect(readUsername('@ana_b')).toEqual({ username: 'ana_b', platform: null })
    expect(readUsername('https://x.com/ana_b?s=20')).toEqual({ username: 'ana_b', platform: 'twitter' })
    expect(readUsername('twitter.com/ana_b')).toEqual({ username: 'ana_b', platform: 'twitter' })
    expect(readUsername('https://www.instagram.com/ana.b/')).toEqual({
      username: 'ana.b',
      platform: 'instagram',
    })
  })

  it('gives every row an outcome: added, merged into an earlier row, or an error; nothing dropped', () => {
    const file = [
      'Username,Platform,Note',
      '@ana_b,twitter,Asked by e-mail',
      'ANA_B,x,again',
      'https://www.instagram.com/ana.b/,,',
      'not valid,twitter,',
      'carl,linkedin,',
      'dora,,',
      ',twitter,',
      "'=cmd,twitter,",
    ].join('\n')
    const { rows, problem } = readImport(file, null)
    expect(problem).toBeNull()
    expect(rows.map((r) => [r.line, r.username, r.platform, r.error, r.duplicateOf])).toEqual([
      [2, 'ana_b', 'twitter', null, null],
      [3, 'ANA_B', 'twitter', null, 2],
      [4, 'ana.b', 'instagram', null, null],
      [5, 'not valid', 'twitter', '"not valid" is not an X username (1-15 letters, digits or _).', null],
      [6, 'carl', null, 'Unknown platform "linkedin": use Twitter or Instagram.', null],
      [7, 'dora', null, 'No platform: add a platform column or choose one above.', null],
      [8, '', 'twitter', 'The username is empty.', null],
      [9, '=cmd', 'twitter', '"=cmd" is not an X username (1-15 letters, digits or _).', null],
    ])
    expect(rows[0]?.reason).toBe('Asked by e-mail')
    // the platform chosen for rows without one
    expect(readImport(file, 'instagram').rows[5]).toMatchObject({
      username: 'dora',
      platform: 'instagram',
      error: null,
    })
  })

  it('without a header the first column is the username and the second the platform', () => {
    const { rows } = readImport('ana_b\nben,instagram\n\n', 'twitter')
    expect(rows.map((r) => [r.line, r.username, r.platform])).toEqual([
      [1, 'ana_b', 'twitter'],
      [2, 'ben', 'instagram'],
    ])
  })

  it('says when a file has nothing, or too many rows', () => {
    expect(readImport(' \n,\n', 'twitter').problem).toBe('The file has no rows.')
    const big = ['username', ...Array.from({ length: 10_001 }, (_, i) => `u${i}`)].join('\n')
    expect(readImport(big, 'twitter').problem).toMatch(/10,001 rows; import at most 10,000/)
  })
})

describe('do-not-contact CSV export (formula-safe)', () => {
  it('quotes every field and neutralises = + - @ tab and CR after any separator', () => {
    expect(csvField('ana')).toBe('"ana"')
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    for (const start of ['+', '-', '@', '\t', '\r']) expect(csvField(`${start}1`)).toBe(`"'${start}1"`)
    expect(csvField('Opted out: "stop",=cmd;@x')).toBe(`"Opted out: ""stop"",'=cmd;'@x"`)
    expect(csvField(null)).toBe('""')
    expect(csvLine(['ana', 3])).toBe('"ana","3"')
  })

  it('an export reads back as the same people', () => {
    const exported = [
      csvLine(['username', 'platform', 'reason']),
      csvLine(['ana_b', 'twitter', '-- by phone']),
    ].join('\r\n')
    expect(readImport(exported, null).rows).toMatchObject([
      { username: 'ana_b', platform: 'twitter', reason: '-- by phone', error: null },
    ])
  })
})

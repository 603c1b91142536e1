import { describe, expect, it } from 'vitest'
import { dncExportCsv, parseCsv, readImport, readUsername, rowsToFixCsv } from './dnc-csv'

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

describe('do-not-contact CSV export and rows to fix (the shared formula-safe encoder)', () => {
  const entry = (target_username: string, reason: string) => ({
    id: '00000000-0000-4000-8000-000000000001',
    platform: 'twitter',
    target_username,
    reason,
    created_at: '2026-11-22T10:00:00+00:00',
    skipped_leads: 2,
  })

  it('defuses a formula after any separator a spreadsheet may split on, spaces and quotes between', () => {
    const csv = dncExportCsv([
      entry('ana_b', 'Sam; =1+1'),
      entry('ben', 'Sam|=cmd'),
      entry('cy', 'Sam;"=1+1'),
      // the runner's opt-out note quotes the reply, text the lead chose
      entry('dee', 'Opted out by reply: "stop;"@SUM(A1)"'),
      entry('eve', '=HYPERLINK("x")'),
    ])
    expect(csv.split('\r\n')).toEqual([
      '"username","platform","reason","added_at","skipped_leads"',
      `"ana_b","twitter","Sam; '=1+1","2026-11-22T10:00:00+00:00","2"`,
      `"ben","twitter","Sam|'=cmd","2026-11-22T10:00:00+00:00","2"`,
      `"cy","twitter","Sam;""'=1+1","2026-11-22T10:00:00+00:00","2"`,
      `"dee","twitter","Opted out by reply: ""stop;""'@SUM(A1)""","2026-11-22T10:00:00+00:00","2"`,
      `"eve","twitter","'=HYPERLINK(""x"")","2026-11-22T10:00:00+00:00","2"`,
      '',
    ])
  })

  it("the rows to fix keep the file's cells and add why, through the same encoder", () => {
    expect(rowsToFixCsv(['handle', 'note'], [{ cells: ['x y', 'Sam|=cmd'], error: 'bad' }])).toBe(
      `"handle","note","error"\r\n"x y","Sam|'=cmd","bad"\r\n`,
    )
    expect(rowsToFixCsv(null, [{ cells: ['-1'], error: 'Sam; =1+1' }])).toBe(
      `"username","platform","reason","error"\r\n"'-1","Sam; '=1+1"\r\n`,
    )
  })

  it('an export reads back as the same people', () => {
    expect(readImport(dncExportCsv([entry('ana_b', '-- by phone')]), null).rows).toMatchObject([
      { username: 'ana_b', platform: 'twitter', reason: '-- by phone', error: null },
    ])
  })
})

import assert from 'node:assert/strict'
import { csvDocument, csvField } from './csv.ts'

Deno.test('every field is quoted, quotes doubled, empty values are empty fields', () => {
  assert.equal(csvField('plain'), '"plain"')
  assert.equal(csvField('x, "y"'), '"x, ""y"""')
  assert.equal(csvField(null), '""')
  assert.equal(csvField(undefined), '""')
  assert.equal(csvField(42), '"42"')
  assert.equal(csvField(-5), '"-5"') // a number is never a formula
  assert.equal(
    csvDocument([
      ['A', 'B'],
      ['1', null],
    ]),
    '"A","B"\r\n"1",""\r\n',
  )
})

Deno.test('a formula start is defused at the start of a field', () => {
  for (const start of ['=', '+', '-', '@', '\t', '\r'])
    assert.equal(csvField(`${start}1+1`), `"'${start}1+1"`, JSON.stringify(start))
})

Deno.test('and after every character a spreadsheet may split on, with spaces or quotes between', () => {
  assert.equal(csvField('Sam;=1+1'), `"Sam;'=1+1"`) // the review's case
  assert.equal(csvField('Sam,=1+1'), `"Sam,'=1+1"`)
  assert.equal(csvField('Sam|@SUM(A1)'), `"Sam|'@SUM(A1)"`)
  assert.equal(csvField('Sam\t-2+3'), `"Sam\t'-2+3"`)
  assert.equal(csvField('Sam\n+cmd'), `"Sam\n'+cmd"`)
  assert.equal(csvField('Sam\r\n=1'), `"Sam\r\n'=1"`)
  assert.equal(csvField('Sam; =1+1'), `"Sam; '=1+1"`)
  assert.equal(csvField('Sam;"=1+1"'), `"Sam;""'=1+1"""`)
  assert.equal(csvField('a;=1;=2'), `"a;'=1;'=2"`)
  assert.equal(csvField('=1\t=2'), `"'=1\t'=2"`)
})

Deno.test('text without a formula start is left alone', () => {
  for (const text of ['2026-11-22T10:00:00+00:00', 'a-b', 'x@y.example', 'growth, 10 accounts', '1+1'])
    assert.equal(csvField(text), `"${text}"`)
})

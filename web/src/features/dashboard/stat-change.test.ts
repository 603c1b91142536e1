import { describe, expect, it } from 'vitest'
import { changeTone, formatChange } from './stat-change'

describe('stat card change rule', () => {
  it('+ is green (up), 0 is hidden, anything else red (down)', () => {
    expect(changeTone('+12.5%')).toBe('up')
    expect(changeTone('0')).toBe('hidden')
    expect(changeTone('0%')).toBe('hidden')
    expect(changeTone('')).toBe('hidden')
    expect(changeTone('-3%')).toBe('down')
    expect(changeTone('2 new')).toBe('down')
  })
  it('formats a signed change, 0 when there is none or no baseline', () => {
    expect(formatChange(12.46, '%')).toBe('+12.5%')
    expect(formatChange(-3, '%')).toBe('-3%')
    expect(formatChange(0)).toBe('0')
    expect(formatChange(null)).toBe('0')
    expect(formatChange(Number.POSITIVE_INFINITY)).toBe('0')
  })
})

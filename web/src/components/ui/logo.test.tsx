import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Logo } from './logo'

describe('Logo', () => {
  it('paints each mark from a gradient of its own, so a mark in a hidden drawer cannot blank the others', () => {
    const { container } = render(
      <>
        <Logo href={null} />
        <Logo href={null} />
      </>,
    )
    const marks = [...container.querySelectorAll('svg')]
    expect(marks).toHaveLength(2)
    const ids = marks.map((svg) => {
      const gradient = svg.querySelector('linearGradient')
      const fill = svg.querySelector('rect')?.getAttribute('fill')
      expect(fill).toBe(`url(#${gradient?.id})`)
      return gradient?.id
    })
    expect(new Set(ids).size).toBe(2)
  })
})

import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { StatusBadge } from './status-badge'
import { badgeStyle } from './status-badge-style'

describe('status badge (product.md §4)', () => {
  it.each([
    ['active', 'green', 'Active'],
    ['success', 'green', 'Success'],
    ['running', 'green', 'Running'],
    ['completed', 'green', 'Completed'],
    ['warning', 'yellow', 'Warning'],
    ['paused', 'yellow', 'Paused'],
    ['error', 'red', 'Error'],
    ['failed', 'red', 'Failed'],
    ['inactive', 'red', 'Inactive'],
    ['pending', 'grey', 'Pending'],
  ])('%s is %s and reads %s', (status, tone, label) => {
    expect(badgeStyle(status)).toMatchObject({ tone, label })
  })

  it('shows a clock for pending and anything unknown, a pause icon for paused', () => {
    expect(badgeStyle('pending').icon).toBe('clock')
    expect(badgeStyle('draft').icon).toBe('clock')
    expect(badgeStyle('paused').icon).toBe('pause')
  })

  it('is grey and reads Unknown for statuses the product does not name, empty or missing', () => {
    for (const status of ['draft', 'queued', '', null, undefined]) {
      expect(badgeStyle(status)).toEqual({ tone: 'grey', icon: 'clock', label: 'Unknown' })
    }
  })

  it('ignores case and surrounding spaces', () => {
    expect(badgeStyle(' RUNNING ').label).toBe('Running')
  })

  it('renders the label with the tone and icon it maps to', () => {
    render(<StatusBadge status="failed" />)
    const badge = screen.getByText('Failed')
    expect(badge).toHaveAttribute('data-tone', 'red')
    expect(badge).toHaveAttribute('data-icon', 'cross')
    expect(badge.querySelector('svg')).not.toBeNull()
  })
})

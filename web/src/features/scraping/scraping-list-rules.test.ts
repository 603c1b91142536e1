import { describe, expect, it } from 'vitest'
import { criteriaText } from './scraping-form'
import { scrapingDisplay, scrapingFilterOf } from './scraping-status'

describe('scraping list view', () => {
  it('scraping: pending is Not started (not Paused, not counted as paused); a failing run says so', () => {
    expect(scrapingDisplay({ status: 'running' })).toEqual({ badge: 'running', label: 'Running' })
    expect(scrapingDisplay({ status: 'completed' })).toEqual({ badge: 'completed', label: 'Completed' })
    expect(scrapingDisplay({ status: 'pending' })).toEqual({ badge: 'pending', label: 'Not started' })
    expect(scrapingDisplay({ status: 'paused' })).toEqual({ badge: 'paused', label: 'Paused' })
    expect(scrapingDisplay({ status: 'running', error_message: 'X did not show the home page' })).toEqual({
      badge: 'error',
      label: 'Failing',
    })
    expect(scrapingFilterOf('pending')).toBe('pending')
    expect(scrapingFilterOf('paused')).toBe('paused')
    expect(scrapingFilterOf('running')).toBe('running')
  })
  it('criteria text of the list view', () => {
    expect(
      criteriaText([
        { type: 'followers', value: 'saas' },
        { type: 'hashtag', value: 'buildinpublic' },
        { type: 'keyword', value: 'founder' },
      ]),
    ).toBe('Followers of @saas, #buildinpublic, "founder"')
  })
})

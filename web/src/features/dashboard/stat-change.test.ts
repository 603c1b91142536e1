import { describe, expect, it } from 'vitest'
import type { Campaign } from '@/features/campaigns/api/types'
import { filterCampaigns, NO_FILTERS } from '@/features/campaigns/campaign-filters'
import { campaignBadgeStatus, campaignFilterOf, isSending } from '@/features/campaigns/campaign-status'
import { criteriaText } from '@/features/scraping/scraping-form'
import { scrapingDisplay, scrapingFilterOf } from '@/features/scraping/scraping-status'
import { csvFilename, toCsv } from '@/lib/csv'
import { changeTone, formatChange } from './stat-change'

describe('stat card change rule (spec §2)', () => {
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

describe('status mappings (spec §4)', () => {
  it('DM campaigns: running → Active, queued and others → Draft; Running figures only while active', () => {
    expect(campaignFilterOf('running')).toBe('active')
    expect(campaignFilterOf('queued')).toBe('draft')
    expect(campaignFilterOf('completed')).toBe('completed')
    expect(campaignFilterOf('paused')).toBe('paused')
    expect(campaignFilterOf('draft')).toBe('draft')
    expect(campaignBadgeStatus('queued')).toBe('Draft')
    expect(campaignBadgeStatus('failed')).toBe('failed')
    expect(isSending('running')).toBe(true)
    expect(isSending('queued')).toBe(false)
  })
  it('scraping: pending is Not started (not Paused, not counted as paused); a failing run says so (issue 18 item 5)', () => {
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

describe('campaign filters (the Filter, Status and Industry buttons work)', () => {
  const base = { account_id: 'a1', industry: 'SaaS' } as Campaign
  const list = [
    { ...base, id: '1', name: 'Alpha founders', status: 'running' },
    { ...base, id: '2', name: 'Beta agencies', status: 'paused', industry: 'Agencies', account_id: 'a2' },
    { ...base, id: '3', name: 'Gamma', status: 'queued' },
  ] as Campaign[]
  const ids = (f: Partial<typeof NO_FILTERS>) =>
    filterCampaigns(list, { ...NO_FILTERS, ...f }).map((c) => c.id)
  it('sub-filters, search, account, exact status and industry', () => {
    expect(ids({})).toEqual(['1', '2', '3'])
    expect(ids({ bucket: 'active' })).toEqual(['1'])
    expect(ids({ bucket: 'draft' })).toEqual(['3'])
    expect(ids({ search: 'FOUNDERS' })).toEqual(['1'])
    expect(ids({ accountId: 'a2' })).toEqual(['2'])
    expect(ids({ status: 'queued' })).toEqual(['3'])
    expect(ids({ industry: 'Agencies' })).toEqual(['2'])
  })
})

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

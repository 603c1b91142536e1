import { describe, expect, it } from 'vitest'
import type { Campaign } from './api/types'
import { filterCampaigns, NO_FILTERS } from './campaign-filters'
import { campaignBadgeStatus, campaignFilterOf, isSending } from './campaign-status'

describe('DM campaign status mapping', () => {
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

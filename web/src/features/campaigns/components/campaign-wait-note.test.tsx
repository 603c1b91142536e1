import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/testing/render-app'
import type { CampaignWait } from '../api/get-campaign-waits'
import { CampaignWaitNote } from './campaign-wait-note'

const wait = (cause: CampaignWait['cause']): CampaignWait => ({
  accountUsername: 'acme',
  cause,
  cap: 450,
  resumesAt: null,
})

describe('CampaignWaitNote', () => {
  it('a campaign held by the daily ceiling links to the change-plan control in its details', () => {
    renderApp(<CampaignWaitNote wait={wait('platform')} large />)
    expect(screen.getByRole('link', { name: 'Add accounts to send more' })).toHaveAttribute(
      'href',
      '/billing?change=plan',
    )
  })

  it('no link for caps more accounts do not lift, nor on the card (itself a button)', () => {
    const warmup = renderApp(<CampaignWaitNote wait={wait('warmup')} large />)
    expect(screen.queryByRole('link')).toBeNull()
    warmup.unmount()
    renderApp(<CampaignWaitNote wait={wait('platform')} />)
    expect(screen.queryByRole('link')).toBeNull()
  })
})

import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { DetailsBody } from '@/components/ui/details-body'
import { lazyWithPreload } from './lazy-with-preload'

describe('analytics panels load ahead and say so while they load', () => {
  it('a preload starts the import once; the panel then renders from the same promise', async () => {
    const load = vi.fn(async () => ({ default: () => <p>Chart drawn</p> }))
    const panel = lazyWithPreload(load)
    panel.preload()
    panel.preload()
    expect(load).toHaveBeenCalledTimes(1)
    render(<panel.Component />)
    expect(await screen.findByText('Chart drawn')).toBeInTheDocument()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('while the code loads, the panel says what is coming instead of a grey block', async () => {
    type Loaded = { default: () => React.ReactNode }
    let finish: (value: Loaded) => void = () => {}
    const panel = lazyWithPreload(() => new Promise<Loaded>((resolve) => (finish = resolve)))
    render(
      <DetailsBody
        query={{ isPending: false, isError: false, error: null, data: {}, refetch: () => {} }}
        notFound="Campaign not found"
        tabsLabel="Campaign details"
        tab="analytics"
        onTabChange={() => {}}
        tabs={[{ id: 'analytics', label: 'Analytics' }]}
        loadingLabel="Loading analytics..."
      >
        {() => <panel.Component />}
      </DetailsBody>,
    )
    expect(await screen.findByRole('status')).toHaveTextContent('Loading analytics...')
    finish({ default: () => <p>Chart drawn</p> })
    expect(await screen.findByText('Chart drawn')).toBeInTheDocument()
  })
})

import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { InstagramConnectResult } from './instagram-connect-result'

/** The banner on a page opened at `url`, as the callback's redirect opens the dashboard. */
const renderAt = (url: string) =>
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: '*', element: <InstagramConnectResult /> }], {
        initialEntries: [url],
      })}
    />,
  )

describe('InstagramConnectResult', () => {
  it('says which account was connected, until dismissed', async () => {
    renderAt('/dashboard?tab=social-accounts&instagram=connected&username=lumen.studio')
    expect(screen.getByRole('status')).toHaveTextContent("@lumen.studio is connected through Instagram's API")
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })

  it("shows the callback's reason when nothing was connected, and nothing without a result", () => {
    const { unmount } = renderAt(
      '/dashboard?tab=social-accounts&instagram=error&message=Instagram%20access%20was%20not%20granted%2C%20so%20nothing%20was%20connected.',
    )
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Instagram access was not granted, so nothing was connected.',
    )
    unmount()
    renderAt('/dashboard?tab=social-accounts')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})

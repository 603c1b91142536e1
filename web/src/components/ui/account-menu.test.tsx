import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { AccountMenu } from './account-menu'

function renderMenu(avatarUrl: string | null) {
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <AccountMenu
          name="Dana Lee"
          email="dana@example.com"
          avatarUrl={avatarUrl}
          onSignOut={() => {}}
          profileSettingsHref="/settings"
          accountSettingsHref="/billing"
        />
      ),
    },
  ])
  const { container } = render(<RouterProvider router={router} />)
  return container
}

describe('account menu', () => {
  it('shows the uploaded photo on the button and in the menu, initials without one', async () => {
    const user = userEvent.setup()
    const container = renderMenu('https://cdn.example.com/avatars/u1/avatar.png')
    const button = screen.getByRole('button', { name: 'Account menu' })
    expect(button.querySelector('img')).toHaveAttribute(
      'src',
      'https://cdn.example.com/avatars/u1/avatar.png',
    )
    expect(button).not.toHaveTextContent('DL')
    await user.click(button)
    expect(screen.getByRole('menu').querySelector('img')).toHaveAttribute(
      'src',
      'https://cdn.example.com/avatars/u1/avatar.png',
    )
    expect(screen.getByRole('menu')).toHaveTextContent('Dana Lee')
    container.remove()
  })

  it('falls back to the initials', () => {
    renderMenu(null)
    expect(screen.getByRole('button', { name: 'Account menu' })).toHaveTextContent('DL')
  })
})

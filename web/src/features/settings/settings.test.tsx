import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { profileSettingsSchema } from './api/update-profile'
import { avatarExtension, avatarFileProblem, NOT_AN_IMAGE, TOO_LARGE } from './api/upload-avatar'
import { ProfileForm } from './components/profile-form'

describe('avatar upload rules (product.md §5)', () => {
  it('accepts images only, up to 5 MB', () => {
    expect(avatarFileProblem({ type: 'image/png', size: 1000 })).toBeNull()
    expect(avatarFileProblem({ type: 'application/pdf', size: 1000 })).toBe(NOT_AN_IMAGE)
    expect(avatarFileProblem({ type: '', size: 1000 })).toBe(NOT_AN_IMAGE)
    expect(avatarFileProblem({ type: 'image/jpeg', size: 6 * 1024 * 1024 })).toBe(TOO_LARGE)
  })

  it('stores the photo as avatar.{ext}', () => {
    expect(avatarExtension({ name: 'Me.JPEG', type: 'image/jpeg' })).toBe('jpg')
    expect(avatarExtension({ name: 'photo.webp', type: 'image/webp' })).toBe('webp')
    expect(avatarExtension({ name: 'clipboard', type: 'image/png' })).toBe('png')
  })
})

describe('profile form (product.md §2 Settings)', () => {
  it('edits names and shows the e-mail read-only with its note', () => {
    render(
      <ProfileForm
        userId="u1"
        email="ana@example.com"
        initial={{ full_name: 'Ana', business_name: 'Acme' }}
      />,
    )
    expect(screen.getByLabelText('Full Name')).toHaveValue('Ana')
    expect(screen.getByLabelText('Business Name')).toHaveValue('Acme')
    const email = screen.getByLabelText('Email')
    expect(email).toHaveValue('ana@example.com')
    expect(email).toHaveAttribute('readonly')
    expect(screen.getByText('Email cannot be changed. Contact support if needed.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled()
  })

  it('limits names to 100 characters with a clear message', () => {
    const result = profileSettingsSchema.safeParse({ full_name: 'x'.repeat(101), business_name: '' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('Full name must be 100 characters or fewer')
  })
})

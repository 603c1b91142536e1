import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { passwordMessages, validateNewPassword } from '../api/new-password'
import { NewPasswordForm } from './update-password'

describe('update password form', () => {
  it('has a confirm field and one toggle that shows both passwords', async () => {
    const user = userEvent.setup()
    render(<NewPasswordForm onUpdated={vi.fn()} />)
    const password = screen.getByLabelText('New password', { exact: true })
    const confirm = screen.getByLabelText('Confirm new password')
    expect(password).toHaveAttribute('type', 'password')
    expect(confirm).toHaveAttribute('type', 'password')
    await user.click(screen.getByRole('button', { name: 'Show passwords' }))
    expect(password).toHaveAttribute('type', 'text')
    expect(confirm).toHaveAttribute('type', 'text')
    expect(screen.getByRole('button', { name: 'Hide passwords' })).toHaveAttribute('aria-pressed', 'true')
  })

  it('says nothing before the user leaves a field, then checks on blur and on submit', async () => {
    const user = userEvent.setup()
    const onUpdated = vi.fn()
    render(<NewPasswordForm onUpdated={onUpdated} />)
    expect(screen.queryByText(passwordMessages.missing)).toBeNull()
    const password = screen.getByLabelText('New password', { exact: true })
    await user.type(password, 'abc')
    expect(screen.queryByText(passwordMessages.tooShort)).toBeNull()
    fireEvent.blur(password)
    expect(screen.getByText(passwordMessages.tooShort)).toBeInTheDocument()
    await user.type(password, 'defgh')
    expect(screen.queryByText(passwordMessages.tooShort)).toBeNull()
    await user.type(screen.getByLabelText('Confirm new password'), 'abcdefgX')
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(screen.getByText(passwordMessages.mismatch)).toBeInTheDocument()
    expect(onUpdated).not.toHaveBeenCalled()
  })

  it('validates length and match', () => {
    expect(validateNewPassword('', '')).toEqual({
      password: passwordMessages.missing,
      confirm: passwordMessages.missingConfirm,
    })
    expect(validateNewPassword('secret1', 'secret1')).toEqual({})
    expect(validateNewPassword('secret1', 'secret2')).toEqual({ confirm: passwordMessages.mismatch })
  })
})

import { act, fireEvent, render, renderHook, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toastMessages } from './toast-messages'
import { ToastProvider, useToast } from './toast-provider'

const wrapper = ({ children }: { children: ReactNode }) => <ToastProvider>{children}</ToastProvider>

function setup() {
  const { result } = renderHook(() => useToast(), { wrapper })
  return result.current
}

const toastEl = (text: string) => screen.getByText(text).closest('[data-phase]') as HTMLElement

describe('toasts (product.md §4, §9)', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('fades in after 50 ms', () => {
    const toast = setup()
    act(() => void toast.info('Hello'))
    expect(toastEl('Hello')).toHaveAttribute('data-phase', 'entering')
    act(() => void vi.advanceTimersByTime(49))
    expect(toastEl('Hello')).toHaveAttribute('data-phase', 'entering')
    act(() => void vi.advanceTimersByTime(1))
    expect(toastEl('Hello')).toHaveAttribute('data-phase', 'visible')
  })

  it('closes itself after 5000 ms by default, with a 300 ms exit', () => {
    const toast = setup()
    act(() => void toast.success('Saved'))
    act(() => void vi.advanceTimersByTime(4999))
    expect(toastEl('Saved')).toHaveAttribute('data-phase', 'visible')
    act(() => void vi.advanceTimersByTime(1))
    expect(toastEl('Saved')).toHaveAttribute('data-phase', 'leaving')
    act(() => void vi.advanceTimersByTime(299))
    expect(screen.getByText('Saved')).toBeInTheDocument()
    act(() => void vi.advanceTimersByTime(1))
    expect(screen.queryByText('Saved')).not.toBeInTheDocument()
  })

  it('honours a custom duration', () => {
    const toast = setup()
    act(() => void toast.success('Account connected successfully!', 'Ready for outreach', { duration: 4000 }))
    expect(screen.getByText('Ready for outreach')).toBeInTheDocument()
    act(() => void vi.advanceTimersByTime(4300))
    expect(screen.queryByText('Account connected successfully!')).not.toBeInTheDocument()
  })

  it('errors stay longer (10 s) but dismiss themselves; they can be closed by hand', () => {
    const toast = setup()
    act(() => void toast.error('Failed to save'))
    act(() => void vi.advanceTimersByTime(9_999))
    expect(toastEl('Failed to save')).toHaveAttribute('data-phase', 'visible')
    expect(toastEl('Failed to save')).toHaveAttribute('role', 'alert')
    act(() => void vi.advanceTimersByTime(301))
    expect(screen.queryByText('Failed to save')).not.toBeInTheDocument()
    act(() => void toast.error('Failed again'))
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }))
    act(() => void vi.advanceTimersByTime(300))
    expect(screen.queryByText('Failed again')).not.toBeInTheDocument()
  })

  it('pauses while focus is inside it and gives the rest of its time back afterwards', () => {
    const toast = setup()
    act(() => void toast.error('Read me'))
    act(() => void vi.advanceTimersByTime(8_000))
    fireEvent.focus(toastEl('Read me'))
    act(() => void vi.advanceTimersByTime(60_000))
    expect(toastEl('Read me')).toHaveAttribute('data-phase', 'visible')
    fireEvent.blur(toastEl('Read me'))
    act(() => void vi.advanceTimersByTime(1_999))
    expect(toastEl('Read me')).toHaveAttribute('data-phase', 'visible')
    act(() => void vi.advanceTimersByTime(301))
    expect(screen.queryByText('Read me')).not.toBeInTheDocument()
  })

  it("an action's success replaces its earlier error (same key); other toasts stay", () => {
    const toast = setup()
    act(() => void toast.error('Error pausing campaign: timeout', undefined, { key: 'campaign:1' }))
    act(() => void toast.info('Unrelated'))
    act(() => void toast.success('Campaign paused!', undefined, { key: 'campaign:1' }))
    expect(screen.queryByText('Error pausing campaign: timeout')).not.toBeInTheDocument()
    expect(screen.getByText('Campaign paused!')).toBeInTheDocument()
    expect(screen.getByText('Unrelated')).toBeInTheDocument()
  })

  it('dismisses stale errors on request (a tab switch) and keeps the rest', () => {
    const toast = setup()
    act(() => void toast.error('Stale error'))
    act(() => void toast.success('Still here'))
    act(() => void toast.dismissType('error'))
    act(() => void vi.advanceTimersByTime(300))
    expect(screen.queryByText('Stale error')).not.toBeInTheDocument()
    expect(screen.getByText('Still here')).toBeInTheDocument()
  })

  it('keeps at most 5, newest first', () => {
    const toast = setup()
    act(() => {
      for (let i = 1; i <= 7; i++) toast.info(`Toast ${i}`)
    })
    const shown = [...document.querySelectorAll('[data-phase]')].map((el) => el.textContent)
    expect(shown.map((text) => text?.replace('Close notification', ''))).toEqual([
      'Toast 7',
      'Toast 6',
      'Toast 5',
      'Toast 4',
      'Toast 3',
    ])
  })

  it('runs an optional action button', () => {
    const toast = setup()
    const onClick = vi.fn()
    act(() => void toast.show({ type: 'warning', message: 'Undo?', action: { label: 'Undo', onClick } }))
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }))
    expect(onClick).toHaveBeenCalledOnce()
  })

  it('throws when used outside its provider', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => renderHook(() => useToast())).toThrow('useToast must be used within a ToastProvider')
    quiet.mockRestore()
  })

  it('renders within the width limits at the bottom right', () => {
    const toast = setup()
    act(() => void toast.info('Sized'))
    const classes = toastEl('Sized').className
    expect(classes).toContain('max-w-[480px]')
    expect(classes).toContain('min-w-[min(320px,calc(100vw-2rem))]')
    expect(screen.getByRole('region', { name: 'Notifications' }).className).toContain('right-4 bottom-4')
  })
})

describe('toast helper texts (product.md §8)', () => {
  it('words the common outcomes', () => {
    expect(toastMessages.completed('export')).toBe('Export completed successfully')
    expect(toastMessages.failed('save settings')).toBe('Failed to save settings. Please try again.')
    expect(toastMessages.saved('profile')).toBe('Profile saved successfully')
    expect(toastMessages.copied('link')).toBe('Link copied to clipboard')
    expect(toastMessages.deleted('campaign')).toBe('Campaign deleted successfully')
    expect(toastMessages.genericError).toBe('An error occurred')
  })
})

function FireToast() {
  const toast = useToast()
  return (
    <button
      type="button"
      onClick={() => toast.success('Profile photo updated successfully!', 'Photo Upload Complete')}
    >
      fire
    </button>
  )
}

describe('Toaster inside the provider', () => {
  it('shows a title above the message', () => {
    render(
      <ToastProvider>
        <FireToast />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByText('fire'))
    expect(screen.getByText('Photo Upload Complete')).toBeInTheDocument()
    expect(screen.getByText('Profile photo updated successfully!')).toBeInTheDocument()
  })
})

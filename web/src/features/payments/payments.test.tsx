import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { PaymentCancelled } from './components/payment-cancelled'
import { PaymentSuccess, successRows } from './components/payment-success'

function renderAt(path: string, element: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] })
  render(<RouterProvider router={router} />)
}

describe('/success (product.md §2, §8)', () => {
  it("without a session id: 'Error Loading Payment Details', 'No session ID found' and Return to Home", () => {
    renderAt('/success', <PaymentSuccess />)
    expect(screen.getByRole('heading', { name: 'Error Loading Payment Details' })).toBeInTheDocument()
    expect(screen.getByText('No session ID found')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')
  })

  it("when the session cannot be read: 'Failed to fetch session data'", async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    renderAt('/success?session_id=cs_test_123', <PaymentSuccess />)
    expect(screen.getByText('Confirming your payment...')).toBeInTheDocument()
    expect(
      await screen.findByText('Failed to fetch session data', {}, { timeout: 15_000 }),
    ).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Error Loading Payment Details' })).toBeInTheDocument()
    quiet.mockRestore()
  }, 20_000)
})

describe('/cancel (product.md §2)', () => {
  it('offers Try Payment Again, Contact Support and Back to Home', () => {
    renderAt('/cancel', <PaymentCancelled />)
    expect(screen.getByRole('link', { name: 'Try Payment Again' })).toHaveAttribute('href', '/#pricing')
    expect(screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toMatch(/^mailto:/)
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/')
  })
})

describe('/success summary', () => {
  const base = {
    amount_total: 111_600,
    customer: { email: 'ann@example.com' },
    metadata: { planType: 'growth', billing_cycle: 'yearly', accounts: '1' },
  }

  it('a trial says nothing was charged, and names the first charge and its date in the pricing format', () => {
    const rows = Object.fromEntries(
      successRows({
        ...base,
        outcome: 'trial',
        amount_due_today: 0,
        trial_end: '2026-11-28T12:00:00.000Z',
        first_charge_amount: 111_600,
        first_charge_at: '2026-11-28T12:00:00.000Z',
      }),
    )
    expect(rows['Due today']).toBe('$0')
    expect(rows.Status).toBe('Free trial')
    expect(rows['First charge']).toBe('$1,116 on November 28, 2026')
    expect(rows).not.toHaveProperty('Amount paid')
  })

  it('a payment shows the amount paid and Active', () => {
    const rows = Object.fromEntries(successRows({ ...base, outcome: 'paid', amount_due_today: 111_600 }))
    expect(rows['Amount paid']).toBe('$1,116')
    expect(rows.Status).toBe('Active')
  })
})

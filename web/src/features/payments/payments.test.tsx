import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { PaymentCancelled } from './components/payment-cancelled'
import { PaymentSuccess } from './components/payment-success'

function renderAt(path: string, element: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] })
  render(<RouterProvider router={router} />)
}

describe('/success (spec §2, §8)', () => {
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

describe('/cancel (spec §2)', () => {
  it('offers Try Payment Again, Contact Support and Back to Home', () => {
    renderAt('/cancel', <PaymentCancelled />)
    expect(screen.getByRole('link', { name: 'Try Payment Again' })).toHaveAttribute('href', '/#pricing')
    expect(screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toMatch(/^mailto:/)
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/')
  })
})

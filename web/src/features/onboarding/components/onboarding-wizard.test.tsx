import type { User } from '@supabase/supabase-js'
import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { checkoutRequestSchema, priceIdFor } from '../api/create-checkout-session'
import { selectedPlanPrice } from '../selected-plan-price'
import { GoalsStep } from './goals-step'
import { OnboardingWizard } from './onboarding-wizard'
import { PlanStep } from './plan-step'
import { firstName } from './welcome-step'

const user = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ana@example.com',
  user_metadata: {},
} as User

describe('onboarding wizard (product.md §2)', () => {
  it('greets by the first word of the full name, or generically', () => {
    expect(firstName('Ana Maria Lima')).toBe('Ana')
    expect(firstName('  ')).toBeNull()
    expect(firstName(null)).toBeNull()
    render(<OnboardingWizard user={user} profile={null} onCompleted={() => {}} />)
    expect(screen.getByRole('heading', { name: 'Welcome to Reachflow!' })).toBeInTheDocument()
  })

  it('walks Welcome → Define Your Goal → Choose Your Plan with a numbered indicator', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    render(
      <OnboardingWizard
        user={user}
        profile={{ id: user.id, full_name: 'Ana Lima' } as never}
        onCompleted={() => {}}
      />,
    )
    expect(screen.getByRole('heading', { name: 'Welcome, Ana!' })).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: "Let's Get Started" }))
    expect(screen.getByRole('heading', { level: 1, name: 'Define Your Goal' })).toBeInTheDocument()
    expect(screen.getByLabelText('Step 1 completed')).toBeInTheDocument()
    const next = screen.getByRole('button', { name: 'Continue' })
    expect(next).toBeDisabled()
    fireEvent.click(screen.getByRole('checkbox', { name: /Lead Generation/ }))
    expect(next).toBeEnabled()
    fireEvent.click(next)
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(screen.getByRole('checkbox', { name: /Lead Generation/ })).toBeChecked()
    quiet.mockRestore()
  })

  it("when checkout cannot start, shows 'Failed to start checkout. Please try again.' and resets the button", async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    const onCompleted = vi.fn()
    render(<OnboardingWizard user={user} profile={null} onCompleted={onCompleted} />)
    fireEvent.click(screen.getByRole('button', { name: "Let's Get Started" }))
    fireEvent.click(screen.getByRole('checkbox', { name: /Sales/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Start 3-Day Free Trial' }))
    expect(await screen.findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent(
      'Failed to start checkout. Please try again.',
    )
    expect(screen.getByRole('button', { name: 'Start 3-Day Free Trial' })).toBeEnabled()
    expect(onCompleted).not.toHaveBeenCalled()
    quiet.mockRestore()
  }, 20_000)
})

describe('goal step', () => {
  it('shows the hint and keeps Continue disabled until a goal is chosen', () => {
    const onChange = vi.fn()
    const { rerender } = render(
      <GoalsStep selected={[]} onChange={onChange} onBack={() => {}} onContinue={() => {}} />,
    )
    expect(
      screen.getByText('Select all that apply - this does not affect campaign performance'),
    ).toBeInTheDocument()
    expect(screen.getAllByRole('checkbox')).toHaveLength(6)
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled()
    fireEvent.click(screen.getByRole('checkbox', { name: /Recruiting/ }))
    expect(onChange).toHaveBeenCalledWith(['recruiting'])
    rerender(
      <GoalsStep selected={['recruiting']} onChange={onChange} onBack={() => {}} onContinue={() => {}} />,
    )
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled()
  })
})

describe('plan step', () => {
  const answers = {
    targetAudience: '',
    dailyMessageGoal: 50,
    businessType: '',
    mainGoals: ['sales' as const],
    billingPeriod: 'yearly' as const,
    selectedPlan: 'starter' as const,
    accountCount: 2,
  }
  const renderStep = (props: Partial<Parameters<typeof PlanStep>[0]> = {}) =>
    render(
      <PlanStep
        answers={answers}
        onChange={() => {}}
        goalsSaved={false}
        starting={false}
        error={null}
        onBack={() => {}}
        onStartTrial={() => {}}
        {...props}
      />,
    )

  it("shows the 3-Month Special (struck $147, $98 for 3 months) and Growth as 'Most Popular'", () => {
    renderStep()
    const special = document.querySelector('[data-plan="bundle"]') as HTMLElement
    expect(within(special).getByText('3-Month Special')).toBeInTheDocument()
    expect(within(special).getByText('$147')).toHaveClass('line-through')
    expect(within(special).getByText('$98')).toBeInTheDocument()
    expect(within(special).getByText('for 3 months')).toBeInTheDocument()
    expect(within(special).queryByText('/mo')).toBeNull()
    const growth = document.querySelector('[data-plan="growth"]') as HTMLElement
    expect(within(growth).getByText('Most Popular')).toBeInTheDocument()
    expect(within(growth).getByText('Contact us for 51+ accounts')).toBeInTheDocument()
    const slider = within(growth).getByRole('slider')
    expect(slider).toHaveAttribute('min', '2')
    expect(slider).toHaveAttribute('max', '50')
    expect(within(growth).getByText('50+')).toBeInTheDocument()
  })

  it("shows 'Your goals have been saved' when told and 'Starting Trial...' while checkout starts", () => {
    renderStep({ goalsSaved: true, starting: true })
    expect(screen.getByText('Your goals have been saved')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Starting Trial...' })).toBeDisabled()
  })
})

describe('checkout request (product.md §7)', () => {
  it('names each purchasable price', () => {
    expect(priceIdFor('starter', 'yearly')).toBe('starter_yearly')
    expect(priceIdFor('growth', 'monthly')).toBe('growth_monthly')
    expect(priceIdFor('bundle', 'yearly')).toBe('bundle_3_months')
  })

  it('sends the chosen card price', () => {
    expect(selectedPlanPrice({ billingPeriod: 'yearly', accountCount: 2, selectedPlan: 'starter' })).toBe(39)
    expect(selectedPlanPrice({ billingPeriod: 'monthly', accountCount: 6, selectedPlan: 'growth' })).toBe(174)
    expect(selectedPlanPrice({ billingPeriod: 'monthly', accountCount: 6, selectedPlan: 'bundle' })).toBe(98)
  })

  it('rejects a body the server would refuse', () => {
    const body = {
      userId: user.id,
      priceId: 'growth_monthly',
      planType: 'growth',
      billingPeriod: 'monthly',
      planName: 'Growth',
      price: 78,
      accountCount: 2,
      source: 'unknown',
    }
    expect(checkoutRequestSchema.safeParse(body).success).toBe(true)
    expect(checkoutRequestSchema.safeParse({ ...body, accountCount: 51 }).success).toBe(false)
    expect(checkoutRequestSchema.safeParse({ ...body, planType: 'enterprise' }).success).toBe(false)
  })
})

// Plan names, feature lists and the display object of product.md §3 ("Plan display object"), built
// from the shared pricing module so no price is typed twice.
import {
  type BillingPeriod,
  BUNDLE_MONTHS,
  BUNDLE_ORIGINAL_PRICE,
  BUNDLE_PRICE,
  DMS_PER_ACCOUNT_PER_DAY,
  ENTERPRISE_MIN_ACCOUNTS,
  onboardingGrowthPricePerAccount,
  type PlanId,
  pricePerAccountMonth,
  STARTER_MONTHLY,
  STARTER_YEARLY_PER_MONTH,
} from '@reachflow/domain'

export const planNames: Record<PlanId, string> = {
  starter: 'Starter',
  growth: 'Growth',
  enterprise: 'Enterprise',
  bundle: '3 Month Bundle',
}

/** The plan's name for a stored plan id ('starter', 'growth', …), tolerating unknown or empty values. */
export function planName(id: string | null | undefined): string {
  if (!id) return 'Free'
  return planNames[id as PlanId] ?? id.charAt(0).toUpperCase() + id.slice(1)
}

const dms = (accounts: number) => (accounts * DMS_PER_ACCOUNT_PER_DAY).toLocaleString('en-US')

const everyPlan = [
  'AI lead filtering (keywords, followers, engagement, bio)',
  'Unlimited lead scraping',
  'AI message sequences with follow-ups',
  'Scheduling by day, time and timezone with random days off',
  'Premium mobile proxies included',
  'Analytics: messages sent, response rate, new leads',
  'Unlimited message history',
  'Private community access',
]

export const planFeatures = {
  starter: (): { features: string[]; allFeatures: string[] } => {
    const features = [
      '1 social account (X or Instagram)',
      `Up to ${dms(1)} DMs per day`,
      ...everyPlan.slice(0, 2),
    ]
    return { features, allFeatures: [...features, ...everyPlan.slice(2), 'Runs 24/7 in the cloud'] }
  },
  growth: (accounts: number): { features: string[]; allFeatures: string[] } => {
    const features = [
      `${accounts} social account${accounts === 1 ? '' : 's'}`,
      `${dms(accounts)} DMs per day`,
      'Multi-account dashboard',
      'Priority support (under 24 h)',
    ]
    return { features, allFeatures: [...features, ...everyPlan, 'Priority founder support'] }
  },
  enterprise: (): { features: string[]; allFeatures: string[] } => {
    const features = [
      `${ENTERPRISE_MIN_ACCOUNTS}+ social accounts`,
      'Unlimited DMs',
      'Dedicated account manager',
      'Custom integrations',
    ]
    return {
      features,
      allFeatures: [...features, 'White-glove onboarding', ...everyPlan, 'Priority founder support'],
    }
  },
  bundle: (): { features: string[]; allFeatures: string[] } => {
    const features = [
      'Everything in Starter',
      `${BUNDLE_MONTHS} months for the price of 2`,
      `Up to ${dms(1)} DMs per day`,
    ]
    return { features, allFeatures: [...features, ...everyPlan] }
  },
}

/** product.md §3 "Plan display object". Prices are whole dollars; `price` is what the card shows large. */
export interface PlanDisplay {
  id: PlanId
  name: string
  monthlyPrice: number
  yearlyPrice: number
  price: number
  /** Text after/below the price, e.g. 'billed annually' or 'for 3 months'. */
  billing: string
  originalPrice?: number
  savings?: string
  isSpecial: boolean
  popular: boolean
  accounts: number
  features: string[]
  allFeatures: string[]
  badge?: string
}

const usd = (dollars: number) => `$${dollars.toLocaleString('en-US')}`

/** The three plan cards of the onboarding wizard (product.md §2 "Choose Your Plan"). */
export function onboardingPlans(period: BillingPeriod, growthAccounts: number): PlanDisplay[] {
  const starterPrice = period === 'yearly' ? STARTER_YEARLY_PER_MONTH : STARTER_MONTHLY
  const growthPerAccount = onboardingGrowthPricePerAccount(growthAccounts)
  const growthMonthlyTotal = growthPerAccount * growthAccounts
  const growthPrice = pricePerAccountMonth('growth', period, growthAccounts) * growthAccounts
  return [
    {
      id: 'starter',
      name: planNames.starter,
      monthlyPrice: STARTER_MONTHLY,
      yearlyPrice: STARTER_YEARLY_PER_MONTH,
      price: starterPrice,
      billing: period === 'yearly' ? `${usd(starterPrice * 12)} billed annually` : 'billed monthly',
      isSpecial: false,
      popular: false,
      accounts: 1,
      ...planFeatures.starter(),
    },
    {
      id: 'growth',
      name: planNames.growth,
      monthlyPrice: growthMonthlyTotal,
      yearlyPrice: pricePerAccountMonth('growth', 'yearly', growthAccounts) * growthAccounts,
      price: growthPrice,
      billing:
        period === 'yearly'
          ? `${usd(growthPrice * 12)} billed annually`
          : `for ${growthAccounts} account${growthAccounts === 1 ? '' : 's'}`,
      isSpecial: false,
      popular: true,
      accounts: growthAccounts,
      badge: 'Most Popular',
      ...planFeatures.growth(growthAccounts),
    },
    {
      id: 'bundle',
      name: planNames.bundle,
      monthlyPrice: BUNDLE_PRICE,
      yearlyPrice: BUNDLE_PRICE,
      price: BUNDLE_PRICE,
      billing: `for ${BUNDLE_MONTHS} months`,
      originalPrice: BUNDLE_ORIGINAL_PRICE,
      savings: `Save ${usd(BUNDLE_ORIGINAL_PRICE - BUNDLE_PRICE)} (one month free)`,
      isSpecial: true,
      popular: false,
      accounts: 1,
      badge: '3-Month Special',
      ...planFeatures.bundle(),
    },
  ]
}

export { usd }

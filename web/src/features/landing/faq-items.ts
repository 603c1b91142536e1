import {
  DMS_PER_ACCOUNT_PER_DAY,
  STARTER_MONTHLY,
  STARTER_YEARLY_PER_MONTH,
  TRIAL_DAYS,
} from '@reachflow/domain'

export interface FaqItem {
  question: string
  answer: string
}

// product.md §2: eight questions. Figures come from the pricing module so the answers never drift.
export const faqItems: FaqItem[] = [
  {
    question: 'How does Reachflow work?',
    answer:
      'Connect your X or Instagram account, tell Reachflow who you want to reach and write (or let AI write) your message sequence. Reachflow scrapes matching prospects, filters them, and sends your messages and follow-ups on your schedule from the cloud. You just reply to the people who answer.',
  },
  {
    question: 'Is it safe for my accounts?',
    answer:
      'Every account runs on its own premium mobile proxy, warms up gradually, and sends with human-like gaps inside the hours you choose, with random days off. Daily limits keep activity well within what the platforms expect.',
  },
  {
    question: 'How many messages can I send per day?',
    answer: `Up to ${DMS_PER_ACCOUNT_PER_DAY} DMs per day per account. Add more accounts to reach more people: each account has its own limit and its own subscription.`,
  },
  {
    question: 'Which platforms are supported?',
    answer:
      'X (Twitter) and Instagram today. More networks are coming soon and will appear in your dashboard when ready.',
  },
  {
    question: 'How much does it cost?',
    answer: `Plans start at $${STARTER_MONTHLY} per month per account, or $${STARTER_YEARLY_PER_MONTH} per month when billed annually. The Growth plan lowers the price per account as you add more, and teams above 50 accounts get custom Enterprise pricing.`,
  },
  {
    question: 'Is there a free trial?',
    answer: `Yes. Every plan starts with a ${TRIAL_DAYS}-day free trial, and every payment is covered by our 30-day money-back guarantee.`,
  },
  {
    question: 'Can I cancel anytime?',
    answer:
      'Yes, there are no contracts. Cancel from the billing page in two clicks; your account stays active until the end of the billing period you paid for.',
  },
  {
    question: 'Do I need any technical skills?',
    answer:
      'No. Setup takes about five minutes: connect an account, pick a lead source, write your message and press launch. If you get stuck, our founder-led support team replies quickly.',
  },
]

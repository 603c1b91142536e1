// A fleet of sending X accounts for the runner's process-level runs (the crash test, bench:runner):
// one customer, N sandbox accounts whose pacing limits are far above what compressed pacing does
// and whose recipients never reply, each running one campaign to its own fresh recipients.
import {
  type AccountOptions,
  type CampaignOptions,
  createCampaign,
  createCustomer,
  createXAccount,
} from './fixtures.ts'
import { openProfiles, type SandboxAdmin, type XSandboxAccount } from './sandbox.ts'
import { newXAccount } from './x-session.ts'

export interface FleetOptions {
  accounts: number
  leadsPerAccount: number
  account?: AccountOptions
  campaign?: CampaignOptions
}

export interface Fleet {
  userId: string
  sandboxes: XSandboxAccount[]
  campaignIds: string[]
  /** DMs the sandbox received from the fleet's accounts, as its delivery log says. */
  deliveries(): Promise<{ account: string; text: string; recipientUsername: string }[]>
}

/** No replies, and limits no compressed run reaches (the sandbox would stop a real-paced sender). */
const UNLIMITED = { replyShare: 0, maxSendsPerMinute: 10_000, maxSameText: 100_000, dailyDmLimit: 100_000 }

export async function createSendingFleet(x: SandboxAdmin, options: FleetOptions): Promise<Fleet> {
  const { accounts, leadsPerAccount } = options
  const userId = await createCustomer(accounts)
  const people = await openProfiles(x, accounts * leadsPerAccount, 0)
  if (people.length < accounts * leadsPerAccount)
    throw new Error(`The X sandbox has only ${people.length} messageable profiles.`)
  const sandboxes: XSandboxAccount[] = []
  const campaignIds: string[] = []
  for (let i = 0; i < accounts; i++) {
    const sandbox = await newXAccount(x, { behaviour: UNLIMITED })
    sandboxes.push(sandbox)
    const accountId = await createXAccount(userId, sandbox, options.account)
    const leads = people.slice(i * leadsPerAccount, (i + 1) * leadsPerAccount)
    campaignIds.push(await createCampaign(userId, accountId, leads, options.campaign))
  }
  const ours = new Set(sandboxes.map((s) => s.username))
  return {
    userId,
    sandboxes,
    campaignIds,
    deliveries: async () => {
      const { deliveries } = await x.call<{
        deliveries: { account: string; text: string; recipientUsername: string }[]
      }>('GET', '/deliveries')
      return deliveries.filter((d) => ours.has(d.account))
    },
  }
}

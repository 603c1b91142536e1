export type { Campaign, Schedule, Sequences } from '@/lib/database/campaigns'

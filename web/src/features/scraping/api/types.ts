export type { ScrapingCampaign, ScrapingFilters, SourceType } from '@/lib/database/scraping'

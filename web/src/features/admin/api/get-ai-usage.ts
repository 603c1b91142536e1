import { adminRequest } from './admin-request'

/** GET admin/ai-usage: each customer's AI use today (UTC), heaviest first. */
export const getAiUsage = () => adminRequest('GET /ai-usage')

import { adminRequest } from './admin-request'

/** product.md §9: the overview lists the 5 most recent activities. */
export const getRecentActivity = (limit = 5) => adminRequest('GET /recent-activity', { query: { limit } })

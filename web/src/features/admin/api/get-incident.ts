import { adminRequest } from './admin-request'
import type { IncidentDetail } from './platform-types'

/** One incident with its redacted page outline (from the private storage bucket). */
export const getIncident = (id: string) => adminRequest<IncidentDetail>(`incidents/${encodeURIComponent(id)}`)

import { z } from 'zod'

/**
 * A lead's profile_data: what the runner read on the platform (display name, bio, followers, the AI's
 * verdict…), a JSON object whose keys vary by platform and source (the table's check keeps it an
 * object). Readers look each key up and check its type.
 */
export const profileDataSchema = z.record(z.string(), z.unknown())
export type ProfileData = z.infer<typeof profileDataSchema>

/** profile_data.ai: the AI filter's verdict on a scraped lead (scored with a score, or unscored and why). */
export const aiVerdictSchema = z.object({
  status: z.string().optional(),
  score: z.number().optional(),
  error: z.string().optional(),
})

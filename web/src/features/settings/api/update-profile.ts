import { z } from 'zod'
import { supabase } from '@/lib/supabase'

/** The editable profile fields; the same schema checks the form and the request. */
export const profileSettingsSchema = z.object({
  full_name: z.string().trim().max(100, 'Full name must be 100 characters or fewer'),
  business_name: z.string().trim().max(100, 'Business name must be 100 characters or fewer'),
})

export type ProfileSettings = z.infer<typeof profileSettingsSchema>

export const SAVE_FAILED = 'Failed to save profile settings. Please try again.'

/** Saves name and business name; throws SAVE_FAILED so the page shows one clear message. */
export async function updateProfile(userId: string, input: ProfileSettings): Promise<void> {
  const values = profileSettingsSchema.parse(input)
  const { data, error } = await supabase
    .from('user_profiles')
    .update({
      full_name: values.full_name || null,
      business_name: values.business_name || null,
      updated_at: new Date().toISOString(),
    })
    .eq('id', userId)
    .select('id')
  if (error || !data || data.length === 0) {
    console.error('Error saving profile settings', error ?? 'no profile row was updated')
    throw new Error(SAVE_FAILED)
  }
  // The session's metadata carries the name the public pages greet with; keep it in step.
  const { error: metadataError } = await supabase.auth.updateUser({
    data: { full_name: values.full_name || null },
  })
  if (metadataError) console.error('Error updating the session name', metadataError)
}

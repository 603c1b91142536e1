import { supabase } from '@/lib/supabase'

export const AVATAR_BUCKET = 'avatars'
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024
export const UPLOAD_FAILED = 'Failed to upload profile photo. Please try again.'
export const NOT_AN_IMAGE = 'Please choose an image file (PNG, JPG, GIF or WebP).'
export const TOO_LARGE = 'Please choose an image smaller than 5 MB.'

/** Why a file cannot be a profile photo, or null when it can (product.md §5: images only). */
export function avatarFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return NOT_AN_IMAGE
  if (file.size > AVATAR_MAX_BYTES) return TOO_LARGE
  return null
}

/** The extension for the stored name: from the file name, else from its type. */
export function avatarExtension(file: Pick<File, 'name' | 'type'>): string {
  const fromName = file.name.includes('.') ? file.name.split('.').pop() : undefined
  const ext = (fromName || file.type.split('/')[1] || 'png').toLowerCase().replace(/[^a-z0-9]/g, '')
  return ext === 'jpeg' ? 'jpg' : ext || 'png'
}

/**
 * Uploads to avatars/{userId}/avatar.{ext} (overwriting), stores the public URL on the profile and
 * returns it. The URL carries a version so browsers do not keep showing the previous photo.
 */
export async function uploadAvatar(userId: string, file: File): Promise<string> {
  const problem = avatarFileProblem(file)
  if (problem) throw new Error(problem)
  const path = `${userId}/avatar.${avatarExtension(file)}`
  const bucket = supabase.storage.from(AVATAR_BUCKET)
  const { error: uploadError } = await bucket.upload(path, file, { upsert: true, contentType: file.type })
  if (uploadError) {
    console.error('Error uploading profile photo', uploadError)
    throw new Error(UPLOAD_FAILED)
  }
  const url = `${bucket.getPublicUrl(path).data.publicUrl}?v=${Date.now()}`
  const { error: profileError } = await supabase
    .from('user_profiles')
    .update({ avatar_url: url, updated_at: new Date().toISOString() })
    .eq('id', userId)
  if (profileError) {
    console.error('Error saving the profile photo address', profileError)
    throw new Error(UPLOAD_FAILED)
  }
  return url
}

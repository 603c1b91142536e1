const PLATFORM_NAMES: Record<string, string> = { twitter: 'X', instagram: 'Instagram' }

/** "X" or "Instagram" for a platform's id (twitter, instagram). */
export function platformName(platform: string | undefined): string {
  return PLATFORM_NAMES[platform ?? ''] ?? platform ?? ''
}

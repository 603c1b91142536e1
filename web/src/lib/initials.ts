/** Up to two initials from a full name, else the e-mail's first letter, else '?'. */
export function initials(name: string | null | undefined, email?: string | null): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean)
  if (words.length > 0)
    return words
      .slice(0, 2)
      .map((w) => w.charAt(0).toUpperCase())
      .join('')
  return (email ?? '').trim().charAt(0).toUpperCase() || '?'
}

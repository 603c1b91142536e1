import { LayoutDashboard, LogOut, Menu, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'
import { paths } from '@/config/paths'
import { displayName, signOut, useAuth } from '@/lib/auth-store'

/** How far the page may move under an open mobile menu before the menu closes. */
const MENU_SCROLL_SLACK_PX = 24

const sectionLinks = [
  { href: '#features', label: 'Features' },
  { href: '#pricing', label: 'Pricing' },
]

/** product.md §2 navigation: Features, Pricing, Sign In, Start Now when signed out; greeting, Sign Out, Dashboard when in. */
export function LandingNav() {
  const user = useAuth((s) => s.user)
  const [menuOpen, setMenuOpen] = useState(false)
  const closeMenu = () => setMenuOpen(false)

  // The open menu belongs to where it was opened: scrolling the page away, Escape, or growing
  // past the mobile breakpoint closes it.
  useEffect(() => {
    if (!menuOpen) return
    const openedAt = window.scrollY
    const onScroll = () => {
      if (Math.abs(window.scrollY - openedAt) > MENU_SCROLL_SLACK_PX) setMenuOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false)
    }
    const wide = window.matchMedia?.('(min-width: 768px)')
    const onWide = (event: MediaQueryListEvent) => {
      if (event.matches) setMenuOpen(false)
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    window.addEventListener('keydown', onKey)
    wide?.addEventListener?.('change', onWide)
    return () => {
      window.removeEventListener('scroll', onScroll)
      window.removeEventListener('keydown', onKey)
      wide?.removeEventListener?.('change', onWide)
    }
  }, [menuOpen])

  const sectionItems = sectionLinks.map((link) => (
    <a
      key={link.href}
      href={link.href}
      onClick={closeMenu}
      className="rounded-md px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900"
    >
      {link.label}
    </a>
  ))

  const accountItems = user ? (
    <>
      <span className="truncate px-3 py-2 text-sm text-slate-600 md:max-w-56">
        Hi, <span className="font-semibold text-slate-900">{displayName(user)}</span>
      </span>
      <button
        type="button"
        onClick={() => {
          closeMenu()
          void signOut()
        }}
        className={buttonClasses('ghost', 'md')}
      >
        <LogOut className="size-4" aria-hidden="true" />
        Sign Out
      </button>
      <Link to={paths.dashboard} onClick={closeMenu} className={buttonClasses('primary', 'md')}>
        <LayoutDashboard className="size-4" aria-hidden="true" />
        Dashboard
      </Link>
    </>
  ) : (
    <>
      <Link to={paths.login} onClick={closeMenu} className={buttonClasses('ghost', 'md')}>
        Sign In
      </Link>
      {/* biome-ignore lint/a11y/useValidAnchor: a real in-page link; the click also closes the mobile menu */}
      <a href="#pricing" onClick={closeMenu} className={buttonClasses('primary', 'md')}>
        Start Now
      </a>
    </>
  )

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/85 backdrop-blur-md">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8"
      >
        <Logo />
        <div className="hidden items-center gap-1 md:flex">{sectionItems}</div>
        <div className="hidden items-center gap-2 md:flex">{accountItems}</div>
        <button
          type="button"
          className="-mr-2 rounded-lg p-2 text-slate-700 hover:bg-slate-100 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? (
            <X className="size-6" aria-hidden="true" />
          ) : (
            <Menu className="size-6" aria-hidden="true" />
          )}
        </button>
      </nav>
      {menuOpen && (
        <div
          id="mobile-menu"
          className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 shadow-lg md:hidden"
        >
          <div className="flex flex-col">{sectionItems}</div>
          <div className="mt-3 flex flex-col gap-2 border-t border-slate-100 pt-3 [&>*]:w-full">
            {accountItems}
          </div>
        </div>
      )}
    </header>
  )
}

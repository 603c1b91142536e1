// What an X and an Instagram session share, so the two adapters differ only in their facts and the
// steps that truly differ (signing in, what a signed-out page looks like, the DM steps): the
// account's browser context, the one-operation-at-a-time page with a hard time limit, paths from
// the platform's facts, navigation under the navigation timeout, and the cookies to save for the
// next run.
import type { Page } from 'puppeteer-core'
import { navigate } from '../browser/navigate.ts'
import { SessionPages } from '../browser/operations.ts'
import type { AccountContext } from '../browser/pool.ts'
import type { TypingOptions } from '../browser/typing.ts'
import { fillPath } from './facts.ts'
import type { SessionCookie } from './types.ts'

export interface PageTimeouts {
  navigationMs: number
}

export abstract class PageSession<
  Facts extends { paths: Record<string, string> },
  Timeouts extends PageTimeouts,
> {
  readonly pages: SessionPages
  user = { id: '', username: '', name: '' }

  constructor(
    readonly context: AccountContext,
    readonly baseUrl: string,
    readonly facts: Facts,
    readonly timeouts: Timeouts,
    readonly typing: TypingOptions,
    /** The platform's name in the page errors' messages. */
    siteName: string,
  ) {
    this.pages = new SessionPages(context, siteName, timeouts.navigationMs)
  }

  /** Before the page navigates, is parked or closed: a session drops what watched the page it leaves. */
  protected leavingPage(): void {}

  /** Runs one operation on the session's page under a hard deadline; a hung page is replaced. */
  run<T>(operation: string, ms: number, work: (page: Page) => Promise<T>): Promise<T> {
    return this.pages.run(operation, ms, work)
  }

  page(): Promise<Page> {
    return this.pages.page()
  }

  park(): Promise<void> {
    this.leavingPage()
    return this.pages.park()
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`
  }

  /** A path of the facts with its placeholders filled in. */
  path(name: keyof Facts['paths'] & string, values: Record<string, string> = {}): string {
    const template = this.facts.paths[name]
    if (template === undefined) throw new Error(`The ${this.pages.label} facts have no path "${name}".`)
    return fillPath(template, values)
  }

  async goto(page: Page, path: string): Promise<void> {
    this.leavingPage()
    await navigate(page, this.url(path), this.timeouts.navigationMs)
  }

  /** The session's cookies now (sites rotate some), to save encrypted and reuse next run. */
  async exportCookies(): Promise<SessionCookie[]> {
    return (await this.context.context.cookies()).map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      ...(c.expires > 0 ? { expires: Math.floor(c.expires) } : {}),
      httpOnly: c.httpOnly ?? false, // optional in puppeteer 25's Cookie type; BiDi always reports it
      secure: c.secure,
      ...(c.sameSite && c.sameSite !== 'Default' ? { sameSite: c.sameSite } : {}), // 'Default': none set
    }))
  }

  close(): Promise<void> {
    this.leavingPage()
    return this.pages.close()
  }
}

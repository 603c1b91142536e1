// The answers to a page's own GraphQL calls, as the page receives them: the adapter never makes these
// calls (X rotates their query ids and signs them with a transaction id only its own script computes).
// It listens to the page's responses for one listing operation (and the user lookup that precedes a
// follower list), and can let the page's first listing request resume from a stored cursor: only the
// cursor variable of the query string changes, the page's own query id and headers go out as they are
// (X's transaction id covers the method and the path, not the query string). An error answer is
// taken from the response event (status and headers): in Chromium over WebDriver BiDi a request
// whose error body the page never reads may never finish, and a 429's rate-limit headers say enough.
import type { HTTPRequest, HTTPResponse, Page } from 'puppeteer-core'
import { watchNetwork } from '../../browser/network-events.ts'
import type { XFacts } from './facts.ts'

export interface CapturedAnswer {
  operation: string
  /** The cursor the request asked from (null: the first page). */
  cursor: string | null
  status: number
  headers: Record<string, string>
  /**
   * The body as text ('' when X sent none, it could not be read, or the answer is an error taken
   * from its headers); status 0: the request failed.
   */
  body: Promise<string>
}

export class ListingCapture {
  readonly #answers: CapturedAnswer[] = []
  // a finished request, not the response event: that comes with the headers, before the body is in
  readonly #onFinished = (request: HTTPRequest) => this.#record(request, 'finished')
  readonly #onFailed = (request: HTTPRequest) => this.#record(request, 'failed')
  // an error answer at once: it may never finish (its body unread), and its body is not needed
  readonly #onResponse = (response: HTTPResponse) => {
    if (response.status() >= 400) this.#record(response.request(), response)
  }
  /** Requests already recorded (an error answer by its response, then again when it finishes). */
  readonly #recorded = new WeakSet<HTTPRequest>()
  readonly #onRequest = (request: HTTPRequest) => void this.#rewrite(request)
  #resumeFrom: string | null = null
  #intercepting = false

  private constructor(
    readonly page: Page,
    readonly facts: XFacts,
    readonly operations: string[],
  ) {
    page.on('requestfinished', this.#onFinished)
    page.on('requestfailed', this.#onFailed)
    page.on('response', this.#onResponse)
  }

  /**
   * Starts listening to the page's requests (its network events are delivered from now on: the
   * browser sends none for pages that do not ask). `operations`: the listing's operation and, for
   * follower lists, the user lookup before it.
   */
  static async on(page: Page, facts: XFacts, operations: string[]): Promise<ListingCapture> {
    await watchNetwork(page)
    return new ListingCapture(page, facts, operations)
  }

  /** The operation a GraphQL path calls, if it is one of ours. */
  #operationOf(url: URL): string | undefined {
    const { pathPrefix } = this.facts.graphql
    if (!url.pathname.startsWith(pathPrefix)) return undefined
    const operation = url.pathname.split('/').pop() ?? ''
    return this.operations.includes(operation) ? operation : undefined
  }

  #variables(url: URL): Record<string, unknown> {
    try {
      const raw = url.searchParams.get(this.facts.graphql.variablesParam)
      const parsed: unknown = raw ? JSON.parse(raw) : {}
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {}
    } catch {
      return {}
    }
  }

  /** `errorAnswer`: the response event of an error answer (its headers are in; its body may never be). */
  #record(request: HTTPRequest, how: 'finished' | 'failed' | HTTPResponse): void {
    if (this.#recorded.has(request)) return
    const errorAnswer = typeof how === 'object'
    const response = how === 'failed' ? null : errorAnswer ? how : request.response()
    // the URL that went out (a resumed request's, with the stored cursor), not the one the page asked for
    const url = new URL(response?.url() ?? request.url())
    const operation = this.#operationOf(url)
    if (!operation) return
    this.#recorded.add(request)
    const cursor = this.#variables(url)[this.facts.graphql.cursorVariable]
    this.#answers.push({
      operation,
      cursor: typeof cursor === 'string' ? cursor : null,
      status: response?.status() ?? 0,
      headers: response?.headers() ?? {},
      body: response && !errorAnswer ? response.text().catch(() => '') : Promise.resolve(''),
    })
  }

  /** The next page the page asks for first (after navigating) starts at this cursor instead. */
  async resumeFrom(cursor: string): Promise<void> {
    this.#resumeFrom = cursor
    this.#intercepting = true
    this.page.on('request', this.#onRequest)
    await this.page.setRequestInterception(true)
  }

  async #rewrite(request: HTTPRequest): Promise<void> {
    if (request.isInterceptResolutionHandled()) return
    const url = new URL(request.url())
    const listing = this.operations.at(-1)
    const resume = this.#resumeFrom
    if (resume !== null && this.#operationOf(url) === listing) {
      const variables = this.#variables(url)
      if (variables[this.facts.graphql.cursorVariable] === undefined) {
        this.#resumeFrom = null
        url.searchParams.set(
          this.facts.graphql.variablesParam,
          JSON.stringify({ ...variables, [this.facts.graphql.cursorVariable]: resume }),
        )
        await request.continue({ url: url.toString() }).catch(() => undefined)
        void this.#stopIntercepting()
        return
      }
    }
    await request.continue().catch(() => undefined)
  }

  async #stopIntercepting(): Promise<void> {
    if (!this.#intercepting) return
    this.#intercepting = false
    this.page.off('request', this.#onRequest)
    await this.page.setRequestInterception(false).catch(() => undefined)
  }

  /** Removes and returns the first answer of the operation (for the listing: from this cursor). */
  take(operation: string, cursor?: string | null): CapturedAnswer | undefined {
    const index = this.#answers.findIndex(
      (a) => a.operation === operation && (cursor === undefined || a.cursor === cursor),
    )
    if (index < 0) return undefined
    return this.#answers.splice(index, 1)[0]
  }

  async stop(): Promise<void> {
    this.page.off('requestfinished', this.#onFinished)
    this.page.off('requestfailed', this.#onFailed)
    this.page.off('response', this.#onResponse)
    await this.#stopIntercepting()
  }
}

// Error answers as Meta words them. Graph API (graph.instagram.com): {"error": {message, type,
// code, error_subcode, fbtrace_id}}; the Instagram OAuth host (api.instagram.com): {error_type,
// code, error_message}. Codes from Meta's Messenger Platform / Instagram Platform error tables
// (docs/sandboxes.md cites them).
import { randomBytes } from 'node:crypto'
import { ApiError } from '../official/server.ts'

export function graphError(
  code: number,
  message: string,
  options: {
    subcode?: number
    status?: number
    type?: string
    transient?: boolean
    headers?: Record<string, string>
  } = {},
): ApiError {
  return new ApiError(
    options.status ?? 400,
    {
      error: {
        message,
        type: options.type ?? 'OAuthException',
        code,
        ...(options.subcode ? { error_subcode: options.subcode } : {}),
        ...(options.transient ? { is_transient: true } : {}),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    },
    options.headers,
  )
}

export const GRAPH = {
  noToken: () => graphError(104, 'An access token is required to request this resource.'),
  badToken: () => graphError(190, 'Invalid OAuth access token - Cannot parse access token'),
  expiredToken: (at: number, now: number) =>
    graphError(
      190,
      `Error validating access token: Session has expired on ${new Date(at).toUTCString()}. The current time is ${new Date(now).toUTCString()}.`,
      { subcode: 463 },
    ),
  noObject: (id: string, method = 'get') =>
    graphError(
      100,
      `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      { subcode: 33, type: 'GraphMethodException' },
    ),
  permission: () => graphError(10, '(#10) Application does not have permission for this action'),
  param: (message: string) => graphError(100, `(#100) ${message}`),
  outsideWindow: () =>
    graphError(10, '(#10) This message is sent outside of allowed window.', { subcode: 2534022 }),
  alreadyReplied: () => graphError(10900, '(#10900) Activity already replied to'),
  unavailable: () => graphError(551, "(#551) This person isn't available right now.", { subcode: 1545041 }),
  /** The User Profile API for someone who never wrote to the account (Meta's documented words). */
  noConsent: () => graphError(230, '(#230) User consent is required to access user profile'),
  noUser: () => graphError(100, '(#100) No matching user found', { subcode: 2534014 }),
  accountRateLimit: (headers: Record<string, string>) =>
    graphError(
      80002,
      '(#80002) There have been too many calls to this Instagram account. Wait a bit and try again.',
      {
        transient: true,
        headers,
      },
    ),
  apiRateLimit: () =>
    graphError(613, '(#613) Calls to this api have exceeded the rate limit.', { transient: true }),
  server: () =>
    graphError(2, 'An unexpected error has occurred. Please retry your request later.', {
      status: 500,
      transient: true,
    }),
}

/** api.instagram.com's OAuth errors. */
export function oauthError(message: string, status = 400): ApiError {
  return new ApiError(status, { error_type: 'OAuthException', code: status, error_message: message })
}

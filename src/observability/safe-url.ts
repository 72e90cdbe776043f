/** `access_token=` in a query (RFC 6750 §2.3) carries a credential: it is masked in every logged URL. */
const ACCESS_TOKEN_PARAMETER = /([?&]access_token=)[^&#]*/gi

/** The URL as it may be logged. */
export function loggableUrl(url: string): string {
  return /access_token/i.test(url) ? url.replace(ACCESS_TOKEN_PARAMETER, '$1[masked]') : url
}

/** Why fetching an image failed; short and stable so callers can branch or log on it. */
export type ImageFetchErrorCode =
  /** Not a parsable absolute `http:`/`https:` URL (or one with credentials or port 0). */
  | 'bad-url'
  /** The host, or an address it resolves to, is not a public address and not allow-listed. */
  | 'not-allowed'
  /** The whole fetch (all hops, headers and body) did not finish in time. */
  | 'timeout'
  /** `Content-Length` or the streamed body exceeds the byte limit. */
  | 'too-large'
  /** The response is not labelled `image/*` or its bytes are not a supported raster image. */
  | 'not-an-image'
  /** The final response status is not 200 (or a redirect lacks a usable `Location`). */
  | 'http-status'
  /** More redirects than allowed. */
  | 'too-many-redirects'
  /** Connection, TLS, DNS or protocol failure, or a truncated body. */
  | 'network';

/** The one error type `fetchImage` rejects with. */
export class ImageFetchError extends Error {
  override readonly name = 'ImageFetchError';
  /** The HTTP status for `http-status` errors. */
  readonly status: number | undefined;

  constructor(
    readonly code: ImageFetchErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = options?.status;
  }
}

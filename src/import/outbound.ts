/**
 * Where an import may go. The source's REST root is contacted as the operator gave it (an
 * intranet site is fine); any other URL the source sends the importer to (a redirect, an image)
 * must stay on the source's origin or pass the outbound address policy of images and webhooks
 * (`checkOutboundUrl`: public addresses on web ports), widened by the hosts the operator allows.
 */
import { allowsUrl, effectivePort, parseAllowedHost, type AllowedHost } from '../images/allowed-hosts.js';
import { ImageFetchError } from '../images/errors.js';
import { checkOutboundUrl } from '../images/fetch-image.js';

/** A URL the importer may contact, and how its connection must be made. */
export interface AllowedUrl {
  url: URL;
  /** On the source's own origin: contacted as the operator's root is, with its credentials. */
  sameOrigin: boolean;
  /** Every address the host resolves to must be public (it is neither the source's nor listed). */
  publicOnly: boolean;
}

/** The outbound policy of one import. */
export class OutboundPolicy {
  readonly #origin: string;
  readonly #allowed: readonly AllowedHost[];
  /** The entries as given, for the image side-loader (which parses them again). */
  readonly allowHosts: readonly string[];

  /** `root`: the source's REST root; `allowHosts`: `host` or `host:port` entries (as `imageHosts`), refused when one names no host. */
  constructor(root: URL, allowHosts: readonly string[] = []) {
    this.#origin = root.origin;
    this.#allowed = allowHosts.map((entry) => {
      const parsed = parseAllowedHost(entry);
      if (!parsed)
        throw new RangeError(`import source: allowed host ${JSON.stringify(entry)} is not a host or host:port (such as intranet.example or 10.0.0.5:8080)`);
      return parsed;
    });
    this.allowHosts = [...allowHosts];
  }

  /** The source's origin as an allow-list entry (`host:port`), so that its own images are side-loaded as its pages are read. */
  get originHost(): string {
    const url = new URL(this.#origin);
    return `${url.hostname}:${effectivePort(url)}`;
  }

  /** `raw` (relative to `base`) if the import may contact it; else a message saying why not. */
  check(raw: string, base?: URL): AllowedUrl | string {
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch {
      return `${raw} is not a URL`;
    }
    if (url.origin === this.#origin && !url.username && !url.password) return { url, sameOrigin: true, publicOnly: false };
    try {
      checkOutboundUrl(url.href, this.#allowed);
    } catch (e) {
      if (e instanceof ImageFetchError) return `${url.href}: ${e.message} (list its host in allowHosts, --allow-host, to follow it)`;
      throw e;
    }
    return { url, sameOrigin: false, publicOnly: !allowsUrl(this.#allowed, url) };
  }
}

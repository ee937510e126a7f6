import { createRequire } from 'node:module';
import type { Express } from 'express';

/** Where the API reference is served, and where its script is. */
export const API_REFERENCE_PATH = '/api-reference/';
const SCRIPT_NAME = 'standalone.js';

/**
 * Scalar's standalone API reference, from node_modules: the page never loads code from a CDN.
 * (`@scalar/api-reference` is a development dependency, as the example servers are.)
 */
export function scalarBundlePath(): string {
  return createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The HTML page that renders the OpenAPI document at `docUrl` with the script at `scriptUrl`. */
export function apiReferencePage({ docUrl, scriptUrl, title = 'Calendar API reference' }: { docUrl: string; scriptUrl: string; title?: string }): string {
  // Nothing from Scalar's own servers: no default fonts (fetched from them), no telemetry, no AI
  // agent, and no developer toolbar (shown on localhost by default).
  const config = JSON.stringify({ url: docUrl, withDefaultFonts: false, telemetry: false, agent: { disabled: true }, showDeveloperTools: 'never' }).replace(
    /</g,
    '\\u003c',
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<div id="app" data-doc-url="${escapeHtml(docUrl)}"></div>
<script src="${escapeHtml(scriptUrl)}"></script>
<script>Scalar.createApiReference('#app', ${config});</script>
</body>
</html>
`;
}

/**
 * Serves the API reference of the calendar mounted at `root` in an Express app: the page at
 * `/api-reference/`, rendering the complete OpenAPI document (`{namespace}/doc/complete`).
 */
export function mountApiReference(app: Express, { root, namespace }: { root: string; namespace: string }): void {
  const page = apiReferencePage({ docUrl: `${root}/${namespace}/doc/complete`, scriptUrl: `${API_REFERENCE_PATH}${SCRIPT_NAME}` });
  const bundle = scalarBundlePath();
  app.get(API_REFERENCE_PATH, (_req, res) => {
    res.type('html').send(page);
  });
  app.get(`${API_REFERENCE_PATH}${SCRIPT_NAME}`, (_req, res) => {
    // The path is node_modules' own, never the request's: a checkout under a dot folder (CI's
    // trees of other Node versions live in .tmp/) must not turn it into a 404.
    res.type('text/javascript').sendFile(bundle, { maxAge: '1h', dotfiles: 'allow' });
  });
}

import { LABELS, type PageLocale } from './client/labels.js';

/** What the page's script reads from its HTML (`<script type="application/json" id="calendar-config">`). */
export interface PageConfig {
  locale: PageLocale;
  /** The API root, relative to the page (`../wp-json/`), so the page works under any prefix. */
  apiRoot: string;
  namespace: string;
}

/** JSON inside `<script>`: `<` escaped, so no text in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page's HTML shell: the script builds the rest; labels in the page's language. */
export function pageHtml(config: PageConfig): string {
  const l = LABELS[config.locale];
  return `<!doctype html>
<html lang="${config.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${l.pageTitle}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="app.css">
<script type="application/json" id="calendar-config">${scriptJson(config)}</script>
<script type="module" src="app.js"></script>
</head>
<body>
<noscript>${l.noScript}</noscript>
</body>
</html>
`;
}

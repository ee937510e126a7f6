/**
 * Source comments name README sections (`README "Read replicas"`) from before the docs folder;
 * generated pages turn those names into links to the pages that hold the sections now.
 */
const PAGES: Record<string, string> = {
  'Read replicas': 'concepts/replicas.md',
  Limits: 'security.md#limits',
  'Extending: fields': 'concepts/extending.md#fields-fields-field',
  'Extending: kinds': 'concepts/extending.md#kinds-kinds-kind',
  'Extending: routes': 'concepts/extending.md#routes-routes-calendarroute',
  'Extending: hooks, change events, roles': 'concepts/extending.md#hooks-change-events-roles',
  'Recurring events': 'concepts/recurring-events.md',
  Webhooks: 'concepts/changes.md#webhooks',
  'Response cache': 'concepts/caching.md#response-cache',
  'CORS, CSRF and cookie sessions': 'concepts/sessions-and-csrf.md',
  'Calendar feeds (iCalendar)': 'concepts/feeds.md',
};

/** The text with each `README "Section"` made a Markdown link relative to a page `depth` folders below docs/. */
export function linkReadmeSections(text: string, depth: number): string {
  const up = '../'.repeat(depth);
  return text.replace(/README\s+"([^"]+)"/g, (_whole, quoted: string) => {
    const name = quoted.replace(/\s+/g, ' ');
    const page = PAGES[name];
    return page === undefined ? `"${name}"` : `[${name}](${up}${page})`;
  });
}

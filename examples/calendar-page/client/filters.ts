import type { Api } from './api.js';
import type { ApiTerm, ApiVenue } from './api-types.js';
import { el, plainText } from './elements.js';
import type { PageFilters } from './feed-url.js';
import type { Labels } from './labels.js';

/** The filter controls and what they hold. */
export interface FilterControls {
  element: HTMLElement;
  current(): PageFilters;
  /** Reads the categories and venues (again: a token may show more of them). */
  load(): Promise<void>;
}

function select(id: string, label: string, all: string, changed: () => void) {
  const control = el('select', { id }, el('option', { value: '' }, all));
  control.addEventListener('change', changed);
  return { control, field: el('div', { class: 'field' }, el('label', { for: id }, label), control) };
}

/** Puts `items` in `control` after its first option ("All …"), keeping the choice when it is still there. */
function fill(control: HTMLSelectElement, items: { id: number; name: string }[]): void {
  const chosen = control.value;
  control.replaceChildren(control.options[0] ?? '', ...items.map((item) => el('option', { value: String(item.id) }, item.name)));
  control.value = items.some((item) => String(item.id) === chosen) ? chosen : '';
}

/** The category and venue filters, their choices read from the API's `/categories` and `/venues`. */
export function filterControls(api: Api, labels: Labels, changed: () => void): FilterControls {
  const category = select('filter-category', labels.category, labels.allCategories, changed);
  const venue = select('filter-venue', labels.venue, labels.allVenues, changed);
  const element = el('fieldset', { class: 'filters' }, el('legend', {}, labels.filters), category.field, venue.field);
  return {
    element,
    current: () => ({ category: category.control.value, venue: venue.control.value }),
    async load() {
      const [categories, venues] = await Promise.all([api.listAll<ApiTerm>('categories', {}), api.listAll<ApiVenue>('venues', {})]);
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      fill(category.control, categories.map((c) => ({ id: c.id, name: plainText(c.name) })).sort(byName));
      fill(venue.control, venues.map((v) => ({ id: v.id, name: plainText(v.venue) })).sort(byName));
    },
  };
}

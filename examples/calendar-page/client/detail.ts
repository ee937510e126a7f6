import DOMPurify from 'dompurify';
import type { ApiEvent, ApiVenue } from './api-types.js';
import { el, plainText } from './elements.js';
import type { Labels } from './labels.js';
import { whenText } from './zoned-times.js';

/** The event detail: a modal `<dialog>` named by the event's title. */
export interface EventDetail {
  element: HTMLDialogElement;
  show(event: ApiEvent): void;
}

const venueOf = (event: ApiEvent): ApiVenue | undefined => (Array.isArray(event.venue) ? undefined : event.venue);

/** A venue's address lines: street, then city with region and postcode, then country. */
function addressLines(venue: ApiVenue): string[] {
  const town = [venue.city, venue.stateprovince, venue.zip].filter(Boolean).join(' ');
  return [venue.address, town, venue.country].filter((line): line is string => !!line);
}

/** A website as a link when it is an http(s) address, else nothing. */
function website(url: string | undefined): HTMLAnchorElement | undefined {
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  return el('a', { href: url, rel: 'noopener noreferrer' }, url);
}

/** One `<dt>`/`<dd>` pair. */
const row = (term: string, ...value: (Node | string | undefined)[]) => [el('dt', {}, term), el('dd', {}, ...value)];

/**
 * The dialog that shows an event: when (in its zone), venue with address, organizers, cost and
 * the description. The description is the API's HTML, sanitised again here by DOMPurify (the
 * API filters it on write; the page does not rely on that alone).
 */
export function eventDetail(locale: string, labels: Labels): EventDetail {
  const title = el('h2', { id: 'detail-title' });
  const body = el('div', { class: 'detail-body' });
  const close = el('button', { type: 'button', class: 'close' }, labels.close);
  const element = el('dialog', { class: 'detail', 'aria-labelledby': 'detail-title' }, title, body, close);
  close.addEventListener('click', () => element.close());
  return {
    element,
    show(event) {
      title.replaceChildren(plainText(event.title), event.status === 'draft' ? el('span', { class: 'badge draft' }, labels.draft) : '');
      const venue = venueOf(event);
      const organizers = event.organizer ?? [];
      const description = DOMPurify.sanitize(event.description ?? '', { RETURN_DOM_FRAGMENT: true });
      body.replaceChildren(
        el(
          'dl',
          {},
          ...row(labels.when, whenText(locale, event, labels.allDay)),
          ...row(
            labels.venue,
            ...(venue
              ? [
                  el('span', { class: 'venue-name' }, plainText(venue.venue)),
                  el('address', {}, ...addressLines(venue).flatMap((line, i) => (i ? [el('br'), line] : [line]))),
                ]
              : [labels.notGiven]),
          ),
          ...row(
            labels.organizers,
            organizers.length
              ? el(
                  'ul',
                  {},
                  ...organizers.map((o) =>
                    el(
                      'li',
                      {},
                      plainText(o.organizer),
                      o.email ? ` · ${o.email}` : '',
                      o.phone ? ` · ${o.phone}` : '',
                      website(o.website) ? ' · ' : '',
                      website(o.website),
                    ),
                  ),
                )
              : labels.notGiven,
          ),
          ...row(labels.cost, event.cost || labels.notGiven),
        ),
        el('h3', {}, labels.description),
        el('div', { class: 'description' }, description.childNodes.length ? description : labels.notGiven),
      );
      element.showModal();
    },
  };
}

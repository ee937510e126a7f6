import { dropEmpty, phpEmpty } from '../../php/empty.js';
import { ORGANIZER } from '../../posts/kinds.js';
import { globalIds, jsonLdText, linkedHead, linkedText } from '../linked/json.js';
import type { DetailsOf } from '../linked/store.js';
import { antispambot } from '../../text/json-ld.js';
import { sanitizeTextField } from '../../text/sanitize.js';
import { sanitizeUrl } from '../../text/url.js';
import type { LinkedInput } from '../linked/args.js';
import type { LinkedKind } from '../linked/service.js';
import type { Image } from '../../schemas/types.js';
import { merged } from '../../merged.js';

type Organizer = DetailsOf<'organizers'>;

const text = (v: unknown) => (phpEmpty(v) ? '' : sanitizeTextField(String(v)));

/** Organizers: phone, website and e-mail (no format check on the e-mail, as upstream). */
export const organizerKind: LinkedKind<'organizers'> = {
  info: ORGANIZER,
  rows: (store) => store.organizers,
  titleKey: 'organizer',
  blank: () => ({ phone: '', website: '', email: '' }),
  details(input: LinkedInput) {
    const out: Partial<Organizer> = {};
    if (input.phone !== undefined) out.phone = text(input.phone);
    if (input.email !== undefined) out.email = text(input.email);
    if (input.website !== undefined) out.website = phpEmpty(input.website) ? '' : sanitizeUrl(String(input.website));
    return out;
  },
  represent(row, view) {
    const { name, ...text } = linkedText(row, view);
    return merged(
      linkedHead(ORGANIZER, row, view),
      dropEmpty({
        organizer: name,
        ...text,
        phone: row.phone,
        website: row.website,
        email: row.email,
        ...(view.jsonLd ? { json_ld: organizerJsonLd(row, view.image) } : {}),
      }),
      globalIds(row.id, view.urls),
    );
  },
};

/** The schema.org `Person` of an organizer. */
export function organizerJsonLd(row: Parameters<typeof organizerKind.represent>[0], image: false | Image): Record<string, unknown> {
  return {
    '@type': 'Person',
    ...jsonLdText(row),
    ...(image ? { image: image.url } : {}),
    url: row.website,
    telephone: row.phone,
    email: antispambot(row.email),
    sameAs: row.website,
  };
}

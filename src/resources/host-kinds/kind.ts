import { dropEmpty } from '../../php/empty.js';
import type { HostKind } from '../../host-kinds/registry.js';
import { globalIds, linkedHead, linkedText } from '../linked/json.js';
import type { LinkedKind } from '../linked/service.js';
import { HostItemStore } from './store.js';

/**
 * The rules of a host's kind: a venue's or organizer's, with no details of its own (its values
 * are the host's fields, added by `fields/`), its name under its noun, and no JSON-LD.
 */
export function hostLinkedKind(kind: HostKind): LinkedKind<'none'> {
  return {
    info: kind.info,
    rows: (store) => new HostItemStore(store.db, store.dialect, kind.noun, store.fields),
    titleKey: kind.noun,
    blank: () => ({}),
    details: () => ({}),
    represent(row, view) {
      const { name, ...text } = linkedText(row, view);
      return {
        ...linkedHead(kind.info, row, view),
        ...dropEmpty({ [kind.noun]: name, ...text }),
        ...globalIds(row.id, view.urls),
      };
    },
  };
}

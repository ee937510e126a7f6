/**
 * An imported event's cost. The source never shows the cost strings it stores, only what they
 * render to: `cost` (`"$25,50"`, `"Free"`, `"$10 – $20"`) and `cost_details` (its symbol,
 * position, code and parsed `values`: `"25.50"`, `"free"`). The strings stored here are those of
 * the first candidate that renders here, through the API's own cost functions, exactly as the
 * source shows it: first the shown `cost` itself, as a write of that text stores it (a cost
 * written as one text, `$25,50` or `Free`, is shown as written), then the parsed values (a
 * cost written as a list, `["0", "15"]`, shown `Free – $15`), then what the original's quirks
 * with decimal commas need (`["5,50", "7,50"]`, shown `Free`; `1.000,50 €`, shown `$1.000`). A
 * cost no candidate renders the same (a source in another locale: `Gratuit`) is stored as shown,
 * and the caller reports the difference.
 */
import { costDetails, formattedCost, type CurrencyPosition, type StoredCost } from '../resources/events/cost.js';
import { phpTrim } from '../php/string.js';

/** What the source shows of an event's cost, read as texts. */
export interface ShownCost {
  /** `cost`: the rendered cost, `''` for none. */
  cost: string;
  /** `cost_details.values`: the parsed values (decimals and slugs). */
  values: string[];
  /** `cost_details.currency_symbol` and `currency_position`, as they are to be stored (through the symbol's write rule). */
  currencySymbol: string;
  currencyPosition: CurrencyPosition;
}

/** The cost to store, and how it renders here. */
export interface ImportedCost {
  stored: StoredCost | null;
  /** `cost` as the API shows the stored cost here. */
  cost: string;
  /** `cost_details.values` as the API shows them here. */
  values: string[];
}

/** `key` (a parsed decimal) written with a decimal comma, as the original parses `5,50`. */
const withComma = (key: string) => key.replace('.', ',');

/** What the API shows of a stored cost. */
function rendered(stored: StoredCost | null): ImportedCost {
  return { stored, cost: formattedCost(stored), values: costDetails(stored).values };
}

/** Whether a cost renders as the source showed it (its values parsed only when its `cost` is the source's). */
function rendersAs(stored: StoredCost | null, shown: ShownCost): boolean {
  if (formattedCost(stored) !== shown.cost) return false;
  const values = costDetails(stored).values;
  return values.length === shown.values.length && values.every((v, i) => v === shown.values[i]);
}

/**
 * The cost strings to store for an event whose source shows `shown`, with its symbol and
 * position, and what they render to here: the source's cost but where no candidate renders as
 * the source shows it (the shown cost is stored then).
 */
export function importedCost(shown: ShownCost): ImportedCost {
  const cost = (values: string[]): StoredCost | null => {
    const kept = values.filter((v) => phpTrim(v) !== '');
    return kept.length ? { values: kept, currencySymbol: shown.currencySymbol, currencyPosition: shown.currencyPosition } : null;
  };
  const asShown = cost([shown.cost]);
  if (rendersAs(asShown, shown)) return { stored: asShown, cost: shown.cost, values: shown.values };
  // The shown cost, and the values it does not give (written with decimal commas, so that
  // they count among the values without changing the range shown): `1.000,50 €`.
  const given = new Set(costDetails(asShown).values);
  for (const values of [shown.values, shown.values.map(withComma), [shown.cost, ...shown.values.filter((v) => !given.has(v)).map(withComma)]]) {
    const stored = cost(values);
    if (rendersAs(stored, shown)) return { stored, cost: shown.cost, values: shown.values };
  }
  return rendered(asShown);
}

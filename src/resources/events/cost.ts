/**
 * Event cost: what is stored when a cost is written and the three
 * ways it is shown — `cost`, `cost_details` and the JSON-LD
 * `offers.price`. Pure functions; storage and i18n live elsewhere.
 */
import { escapeSpecialChars } from '../../text/sanitize.js';
import { compareDecimals, eachNumber, hasDigit, parseCostEntries, type CostEntry } from './cost-parse.js';
import { phpTrim } from '../../php/string.js';
import { isPhpNumeric } from '../../php/numeric.js';

/** Where the currency symbol goes around an amount; `''` when unknown (the site default applies). */
export type CurrencyPosition = 'prefix' | 'postfix' | '';

/** An event cost as stored at save time. */
export interface StoredCost {
  /** Raw cost strings as given: the single string input, or one per array element; never empty. */
  values: string[];
  /** Symbol inferred from the input (`"$"` for `20$`), `''` when none could be inferred. */
  currencySymbol: string;
  /** Position inferred from the input, `''` when none (or no symbol). */
  currencyPosition: CurrencyPosition;
}

/** `cost_details` of an event, keys in upstream order. */
export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: CurrencyPosition;
  /** Numeric strings ascending (`"6.50"`, `"1000"`), slug keys for text (`"free"`). */
  values: string[];
}

/** Site settings and translatable words used to show a cost. */
export interface CostSettings {
  /** Site default currency symbol (TEC `defaultCurrencySymbol`), used when none is stored. */
  symbol: string;
  /** Site default position is postfix (TEC `reverseCurrencyPosition`), used when none is stored. */
  reversePosition: boolean;
  /** The site locale's thousands separator; decides ambiguous `1,000` / `1.000` readings. */
  thousandsSeparator: string;
  /** The word shown for a zero cost (translatable upstream). */
  free: string;
  /** Between the minimum and the maximum of a range (translatable upstream). */
  rangeSeparator: string;
}

/** Upstream defaults: `$` prefix, `,` thousands, English words, en dash U+2013 between spaces. */
export const DEFAULT_COST_SETTINGS: Readonly<CostSettings> = Object.freeze({
  symbol: '$',
  reversePosition: false,
  thousandsSeparator: ',',
  free: 'Free',
  rangeSeparator: ' \u2013 ',
});

/**
 * The string form of one cost value as PHP would store it, or `null` when it is not a
 * string or a finite number. Nested arrays, objects, booleans and `null` are dropped:
 * upstream would either fail on them or store the word `Array`, neither worth copying.
 */
function costText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/**
 * Currency symbol inferred from the raw input (`Cost_Utils::parse_currency_symbol`):
 * the i-th number found across all parts is paired with the i-th part, and the part
 * minus that number (every occurrence), trimmed, is a candidate; all must agree.
 */
function inferSymbol(parts: readonly string[]): string {
  let symbol: string | undefined;
  let i = 0;
  // Lazily, so that a megabyte of numbers stops at the first disagreement.
  for (const part of parts) {
    for (const number of eachNumber(part)) {
      // More numbers than parts: upstream reads a missing part as "" (`"$10 - $20"` → no symbol).
      const candidate = phpTrim((parts[i++] ?? '').split(number).join(''));
      if (symbol === undefined) symbol = candidate;
      else if (candidate !== symbol) return '';
    }
  }
  return symbol ?? '';
}

/**
 * Position of the symbol in the raw input (`Cost_Utils::parse_currency_position`):
 * `prefix` when it starts every part that contains it, `postfix` when it is found later
 * in every such part. Untrimmed parts, as upstream: `"$10, $20"` is mixed.
 */
function inferPosition(parts: readonly string[], symbol: string): CurrencyPosition {
  if (symbol === '') return '';
  let position: CurrencyPosition | undefined;
  for (const part of parts) {
    const at = part.indexOf(symbol);
    if (at < 0) continue;
    const here = at === 0 ? 'prefix' : 'postfix';
    if (position === undefined) position = here;
    else if (position !== here) return '';
  }
  return position ?? '';
}

/**
 * The cost to store for a write's `cost` parameter, or `null` for no cost.
 * Accepts a string, a finite number or an array of those. No cost: absent, any other
 * type, `""`, blank, `"0"` and `0` (PHP-empty), `[]` or an array without usable elements.
 * Array elements that are blank, or neither strings nor finite numbers, are skipped;
 * `"0"` inside an array is a real value (`["0","15"]` → `Free – $15`).
 */
export function costFromInput(input: unknown): StoredCost | null {
  let values: string[];
  let parts: string[];
  if (Array.isArray(input)) {
    values = [];
    for (const element of input as readonly unknown[]) {
      const text = costText(element);
      if (text !== null && phpTrim(text) !== '') values.push(text);
    }
    parts = values;
  } else {
    const text = costText(input);
    if (text === null || phpTrim(text) === '' || text === '0') return null;
    values = [text];
    // Upstream splits a string on commas for the inference only; the string is stored whole.
    // Without a digit there is nothing to infer: skip splitting a megabyte of commas.
    parts = hasDigit(text) ? text.split(',') : [];
  }
  if (values.length === 0) return null;
  const currencySymbol = inferSymbol(parts);
  return { values, currencySymbol, currencyPosition: inferPosition(parts, currencySymbol) };
}

/** `cost_details` of an event; `currencyCode` is stored elsewhere and usually `''`. */
export function costDetails(stored: StoredCost | null, currencyCode = '', settings: Partial<CostSettings> = {}): CostDetails {
  const { thousandsSeparator } = { ...DEFAULT_COST_SETTINGS, ...settings };
  return {
    currency_symbol: stored?.currencySymbol ?? '',
    currency_code: currencyCode,
    currency_position: stored?.currencyPosition ?? '',
    values: stored ? parseCostEntries(stored.values, thousandsSeparator).map((entry) => entry.key) : [],
  };
}

/**
 * The texts shown as minimum and maximum (`Cost_Utils::get_cost_by_func`): a lone
 * non-numeric entry is kept as written (`"Donation"`, `"25,55"`); otherwise only entries
 * whose text is a plain PHP number count (upstream quirk: `"5,50 7,50"` has none, so 0).
 */
function minMaxTexts(entries: readonly CostEntry[]): [string, string] {
  if (entries.length === 1 && entries[0] && !isPhpNumeric(entries[0].text)) return [entries[0].text, entries[0].text];
  const numeric = entries.filter((entry) => entry.numeric && isPhpNumeric(entry.text));
  const first = numeric[0];
  if (first === undefined) return ['0', '0'];
  let min = first;
  let max = first;
  for (const entry of numeric) {
    if (compareDecimals(entry.key, min.key) < 0) min = entry;
    if (compareDecimals(entry.key, max.key) > 0) max = entry;
  }
  return [min.text, max.text];
}

/** PHP's `number_format($cost, 2)` gives `0.00` (`Cost_Utils::maybe_replace_cost_with_free`), decimal commas read as points. */
function isFree(text: string): boolean {
  // Checked first so that megabytes of plain text skip the replace below.
  if (!hasDigit(text)) return false;
  const withPoints = text.replace(/,/g, '.');
  return isPhpNumeric(withPoints) && Math.abs(Number(phpTrim(withPoints))) < 0.005;
}

/** WordPress' `esc_html`: `&<>` without double-encoding entities, plus both quotes. */
function escapeHtml(text: string): string {
  return escapeSpecialChars(text).replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/**
 * One end of the range as shown (`get_formatted_event_cost`): `Free` for zero, the
 * currency symbol around anything numeric once `,`/`.` are ignored, then escaped.
 */
function showAmount(text: string, stored: StoredCost, settings: CostSettings, withCurrency: boolean): string {
  if (isFree(text)) return escapeHtml(settings.free);
  if (!withCurrency || !hasDigit(text) || !isPhpNumeric(text.replace(/[,.]/g, ''))) return escapeHtml(text);
  const symbol = stored.currencySymbol || settings.symbol;
  const position = stored.currencyPosition || (settings.reversePosition ? 'postfix' : 'prefix');
  return escapeHtml(position === 'prefix' ? symbol + text : text + symbol);
}

/** The cost shown from a stored cost: `min – max`, or one amount when they are equal; `null` for no cost. */
function showCost(stored: StoredCost | null, settings: CostSettings, withCurrency: boolean): string | null {
  if (!stored) return null;
  const entries = parseCostEntries(stored.values, settings.thousandsSeparator);
  if (entries.length === 0) return null;
  const [minText, maxText] = minMaxTexts(entries);
  const min = showAmount(minText, stored, settings, withCurrency);
  // Same text, same result: skip a second pass over what may be a megabyte.
  const max = maxText === minText ? min : showAmount(maxText, stored, settings, withCurrency);
  return min === max ? min : min + settings.rangeSeparator + max;
}

/** The event `cost` field: `"$15 – $25"`, `"Free"`, `"Donation"`, `""` for no cost. */
export function formattedCost(stored: StoredCost | null, settings: Partial<CostSettings> = {}): string {
  return showCost(stored, { ...DEFAULT_COST_SETTINGS, ...settings }, true) ?? '';
}

/**
 * JSON-LD `offers.price`: the cost without currency symbol, ranges
 * kept (`"15 – 25"`, `"Free – 15"`); exactly the free word becomes `"0"`.
 * `undefined` for no cost, when the event has no `offers` at all.
 */
export function jsonLdPrice(stored: StoredCost | null, settings: Partial<CostSettings> = {}): string | undefined {
  const full = { ...DEFAULT_COST_SETTINGS, ...settings };
  const price = showCost(stored, full, false);
  if (price === null) return undefined;
  return price === escapeHtml(full.free) ? '0' : price;
}

/** Width of the `currency_symbol` column. */
const SYMBOL_COLUMN = 32;

/**
 * A cost as stored. A "symbol" longer than any currency sign (inferred from text such as
 * `Entry for the whole family 5`) is dropped, as when no symbol can be inferred: the display
 * then uses the site's default.
 */
export function withStorableSymbol(cost: StoredCost): StoredCost {
  return cost.currencySymbol.length > SYMBOL_COLUMN ? { ...cost, currencySymbol: '', currencyPosition: '' } : cost;
}

/** The cost of a write as stored ({@link withStorableSymbol}). */
export function storableCost(input: unknown): StoredCost | null {
  const cost = costFromInput(input);
  return cost && withStorableSymbol(cost);
}

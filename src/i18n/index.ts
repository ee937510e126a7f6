import { de } from './de.js';
import { en, type DescriptionKey, type Dictionary } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';

/** Dictionaries by locale; a host may add its own through the calendar options. */
export const builtInDictionaries: Record<string, Dictionary> = { en, fr, de, es };

/** A locale tag in one spelling: lower case, `_` between parts (`fr-FR` → `fr_fr`). */
function normalize(locale: string): string {
  return locale.trim().toLowerCase().replaceAll('-', '_');
}

/** The dictionary of `dictionaries` whose locale tag is `tag` in any spelling (`fr_FR`, `fr-fr`). */
function lookup(dictionaries: Record<string, Dictionary>, tag: string): Dictionary | undefined {
  if (Object.hasOwn(dictionaries, tag)) return dictionaries[tag];
  for (const [locale, dictionary] of Object.entries(dictionaries)) if (normalize(locale) === tag) return dictionary;
  return undefined;
}

/**
 * The description of `key` in `locale` (`fr`, `fr_FR`, `fr-FR`), falling back to English.
 * The host's dictionaries win over the built-in ones; a regional dictionary over its language's.
 */
export function describe(key: DescriptionKey, locale: string, extra: Record<string, Dictionary> = {}): string {
  const tag = normalize(locale);
  const [language = ''] = tag.split('_');
  const candidates = [lookup(extra, tag), lookup(extra, language), lookup(builtInDictionaries, tag), lookup(builtInDictionaries, language)];
  for (const dictionary of candidates) {
    const text = dictionary?.[key];
    if (typeof text === 'string') return text;
  }
  return en[key];
}

/** Whether a value is a key of the dictionaries (descriptions carried through data as keys). */
export function isDescriptionKey(value: unknown): value is DescriptionKey {
  return typeof value === 'string' && Object.hasOwn(en, value);
}

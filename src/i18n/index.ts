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
function lookup<D>(dictionaries: Readonly<Record<string, D>>, tag: string): D | undefined {
  if (Object.hasOwn(dictionaries, tag)) return dictionaries[tag];
  for (const [locale, dictionary] of Object.entries(dictionaries)) if (normalize(locale) === tag) return dictionary;
  return undefined;
}

/** A text a host gives in several languages, by locale tag (`en`, `fr`, `fr_CA`); English is the fallback. */
export type LocalizedText = Readonly<Record<string, string>>;

/** A description: a key of the dictionaries, or a host's own text in several languages. */
export type Description = DescriptionKey | LocalizedText;

/** A host's text in a language: the regional one, its language's, English's, or the first given. */
function localized(texts: LocalizedText, tag: string, language: string): string {
  return lookup(texts, tag) ?? lookup(texts, language) ?? lookup(texts, 'en') ?? Object.values(texts).find((v) => typeof v === 'string') ?? '';
}

/**
 * The description of `key` in `locale` (`fr`, `fr_FR`, `fr-FR`), falling back to English.
 * The host's dictionaries win over the built-in ones; a regional dictionary over its language's.
 */
export function describe(key: Description, locale: string, extra: Record<string, Dictionary> = {}): string {
  const tag = normalize(locale);
  const [language = ''] = tag.split('_');
  if (typeof key !== 'string') return localized(key, tag, language);
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

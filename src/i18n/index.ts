import { en, type DescriptionKey, type Dictionary } from './en.js';

/** Dictionaries by locale; a host may add its own through the calendar options. */
export const builtInDictionaries: Record<string, Dictionary> = { en };

/** The description of `key` in `locale` (`fr`, `fr_FR`, `fr-FR`), falling back to English. */
export function describe(key: DescriptionKey, locale: string, extra: Record<string, Dictionary> = {}): string {
  const lang = locale.toLowerCase().replace('-', '_');
  const short = lang.split('_')[0];
  return extra[lang]?.[key] ?? extra[short]?.[key] ?? builtInDictionaries[lang]?.[key] ?? builtInDictionaries[short]?.[key] ?? en[key];
}

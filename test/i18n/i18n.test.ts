import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { en, type DescriptionKey } from '../../src/i18n/en.js';
import { builtInDictionaries, describe as describeKey } from '../../src/i18n/index.js';
import { testCalendar, type TestCalendar } from '../helpers/harness.js';
import { descriptions, skeleton } from '../helpers/descriptions.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking JSON

const ENGLISH_KEYS = Object.keys(en).sort();
const LOCALES = ['fr', 'de', 'es'];

describe('built-in dictionaries', () => {
  it('ship English, French, German and Spanish', () => {
    expect(Object.keys(builtInDictionaries).sort()).toEqual(['de', 'en', 'es', 'fr']);
  });

  for (const locale of LOCALES) {
    it(`${locale} has every English key, no other key, and no empty text`, () => {
      const dictionary = builtInDictionaries[locale] as Record<string, unknown>;
      const missing = ENGLISH_KEYS.filter((k) => !Object.hasOwn(dictionary, k));
      expect(missing, `keys of en.ts missing from ${locale}.ts`).toEqual([]);
      expect(Object.keys(dictionary).sort()).toEqual(ENGLISH_KEYS);
      for (const [key, text] of Object.entries(dictionary)) expect(typeof text === 'string' && text.trim() !== '', key).toBe(true);
    });

    it(`${locale} translates (few texts equal the English ones)`, () => {
      const dictionary = builtInDictionaries[locale] as Record<string, string>;
      const same = ENGLISH_KEYS.filter((k) => dictionary[k] === en[k as DescriptionKey]);
      expect(same).toEqual([]);
    });
  }
});

describe('describe(key, locale, extra)', () => {
  it('selects French for fr, fr_FR, fr-FR and FR', () => {
    for (const locale of ['fr', 'fr_FR', 'fr-FR', 'FR', 'fr-ca']) expect(describeKey('archive.page', locale), locale).toBe('La page de l’archive à renvoyer');
    expect(describeKey('archive.page', 'de-AT')).toBe('Die zurückzugebende Seite des Archivs');
    expect(describeKey('archive.page', 'es_MX')).toBe('La página del archivo que se devolverá');
  });

  it('falls back to English for an unknown locale', () => {
    for (const locale of ['it', 'xx-YY', '', 'en_GB']) expect(describeKey('archive.page', locale), locale).toBe(en['archive.page']);
  });

  it('lets host dictionaries add locales and override built-in texts, regional before language', () => {
    const extra = {
      fr: { 'archive.page': 'Page voulue' },
      fr_CA: { 'archive.page': 'Page désirée' },
      it: { 'archive.page': 'La pagina da restituire' },
    };
    expect(describeKey('archive.page', 'fr', extra)).toBe('Page voulue');
    expect(describeKey('archive.page', 'fr-FR', extra)).toBe('Page voulue');
    expect(describeKey('archive.page', 'fr-CA', extra)).toBe('Page désirée');
    expect(describeKey('archive.per_page', 'fr-CA', extra)).toBe('Le nombre d’éléments à renvoyer par page');
    expect(describeKey('archive.page', 'it_IT', extra)).toBe('La pagina da restituire');
    expect(describeKey('archive.per_page', 'it', extra)).toBe(en['archive.per_page']);
  });
});

describe('namespace index by locale', () => {
  let t: TestCalendar;
  const index = async (locale?: string, target = t): Promise<Json> => (await target.request('GET', `/${target.ns}`, { locale })).body;

  beforeAll(async () => {
    t = await testCalendar(':memory:');
  });
  afterAll(() => t.close());
  // The events archive's date defaults are computed per request: one instant for every request.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T12:34:04Z'));
  });
  afterEach(() => vi.useRealTimers());

  for (const locale of LOCALES) {
    it(`under ${locale} differs from English only in descriptions, all translated`, async () => {
      const english = await index('en');
      const translated = await index(locale);
      expect(JSON.stringify(skeleton(translated))).toBe(JSON.stringify(skeleton(english)));
      const [a, b] = [descriptions(english), descriptions(translated)];
      expect(a.length).toBeGreaterThan(100);
      expect(b).toHaveLength(a.length);
      expect(a.filter((d, i) => d === b[i])).toEqual([]);
    });
  }

  it('is English, byte for byte, without a locale or with an unknown one', async () => {
    const english = JSON.stringify(await index('en'));
    expect(JSON.stringify(await index())).toBe(english);
    expect(JSON.stringify(await index('it'))).toBe(english);
    expect(JSON.stringify(await index('pt-BR'))).toBe(english);
  });

  it('uses a host dictionary over the built-in one', async () => {
    const host = await testCalendar(':memory:', {
      dictionaries: { fr: { 'archive.page': 'Page voulue' }, it: { 'archive.per_page': 'Il numero di elementi per pagina' } },
    });
    try {
      const fr = await index('fr_FR', host);
      const args = fr.routes[`/${host.ns}/events`].endpoints[0].args;
      expect(args.page.description).toBe('Page voulue');
      expect(args.per_page.description).toBe('Le nombre d’éléments à renvoyer par page');
      const it = await index('it', host);
      const itArgs = it.routes[`/${host.ns}/events`].endpoints[0].args;
      expect(itArgs.per_page.description).toBe('Il numero di elementi per pagina');
      expect(itArgs.page.description).toBe(en['archive.page']);
    } finally {
      await host.close();
    }
  });

  it('builds links from the root the request came in on', async () => {
    const fr = (await t.request('GET', `/${t.ns}`, { locale: 'fr', root: '/fr/wp-json' })).body;
    expect(fr._links.up[0].href).toBe('http://example.org/fr/wp-json/');
    expect(fr.routes[`/${t.ns}/doc`]._links.self[0].href).toBe(`http://example.org/fr/wp-json/${t.ns}/doc`);
  });
});

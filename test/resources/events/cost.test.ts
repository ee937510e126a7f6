import { describe, expect, it } from 'vitest';
import { costDetails, costFromInput, DEFAULT_COST_SETTINGS, formattedCost, jsonLdPrice, type StoredCost } from '../../../src/resources/events/cost.js';
import { REDACTED_COST_DETAILS } from '../../../src/posts/redact.js';
import { compareDecimals, normalizeSeparators, parseCostEntries } from '../../../src/resources/events/cost-parse.js';
import { phpTrim } from '../../../src/php/string.js';

/** Everything an event response shows for one write input. */
function show(input: unknown) {
  const stored = costFromInput(input);
  return { stored, cost: formattedCost(stored), details: costDetails(stored), price: jsonLdPrice(stored) };
}

const stored = (values: string[], currencySymbol = '', currencyPosition: StoredCost['currencyPosition'] = ''): StoredCost => ({
  values,
  currencySymbol,
  currencyPosition,
});

describe('spec examples (responses.md §2.2, writes.md §2.8, responses.md §6)', () => {
  // [input, cost, values, stored symbol, stored position, offers.price]
  const cases: Array<[unknown, string, string[], string, string, string]> = [
    ['20$', '20$', ['20'], '$', 'postfix', '20'],
    [['0$', '20$', '30$'], 'Free – 30$', ['0', '20', '30'], '$', 'postfix', 'Free – 30'],
    ['20', '$20', ['20'], '', '', '20'],
    ['Free', 'Free', ['free'], '', '', '0'],
    [12, '$12', ['12'], '', '', '12'],
    ['25,55', '$25,55', ['25.55'], '', '', '25,55'],
    ['$10 - $20', '$10 – $20', ['10', '20'], '', '', '10 – 20'],
    [['$15', '$25'], '$15 – $25', ['15', '25'], '$', 'prefix', '15 – 25'],
    ['€6.50 - €8.50', '$6.50 – $8.50', ['6.50', '8.50'], '', '', '6.50 – 8.50'],
    ['5,50 7,50', 'Free', ['5.50', '7.50'], '', '', '0'],
    ['1,000', '$1,000', ['1000'], '', '', '1,000'],
    ['Donation', 'Donation', ['donation'], '', '', 'Donation'],
    [['0', '15'], 'Free – $15', ['0', '15'], '', '', 'Free – 15'],
    ['$10', '$10', ['10'], '$', 'prefix', '10'],
    ['10 - 20', '$10 – $20', ['10', '20'], '', '', '10 – 20'],
  ];
  it.each(cases)('%j → %j', (input, cost, values, symbol, position, price) => {
    const r = show(input);
    expect(r.cost).toBe(cost);
    expect(r.details).toEqual({ currency_symbol: symbol, currency_code: '', currency_position: position, values });
    expect(r.stored).toMatchObject({ currencySymbol: symbol, currencyPosition: position });
    expect(r.price).toBe(price);
  });

  it('stored 23 with $/prefix → "$23"', () => {
    expect(formattedCost(stored(['23'], '$', 'prefix'))).toBe('$23');
    expect(costDetails(stored(['23'], '$', 'prefix')).values).toEqual(['23']);
  });

  it('the range separator is space, U+2013 EN DASH, space', () => {
    expect(show('$10 - $20').cost).toBe('$10 \u2013 $20');
  });

  it('cost_details keys come in upstream order', () => {
    expect(Object.keys(costDetails(costFromInput('20$'), 'USD'))).toEqual(['currency_symbol', 'currency_code', 'currency_position', 'values']);
    expect(costDetails(costFromInput('20$'), 'USD').currency_code).toBe('USD');
  });

  it('example event of §2.5: $15 – $25', () => {
    expect(show(['$15', '$25']).details).toEqual({
      currency_symbol: '$',
      currency_code: '',
      currency_position: 'prefix',
      values: ['15', '25'],
    });
  });

  it('json_ld price for the listed formatted costs', () => {
    expect(jsonLdPrice(stored(['$15', '$25'], '$', 'prefix'))).toBe('15 – 25');
    expect(jsonLdPrice(stored(['$6.50 - $8.50']))).toBe('6.50 – 8.50');
    expect(jsonLdPrice(stored(['0', '15']))).toBe('Free – 15');
    expect(jsonLdPrice(stored(['$10'], '$', 'prefix'))).toBe('10');
    expect(jsonLdPrice(stored(['Free']))).toBe('0');
  });
});

describe('no cost', () => {
  it.each([undefined, null, '', '0', 0, -0, [], ['', ''], ['  '], '   ', [null, {}, []]])('%j stores nothing', (input) => {
    expect(costFromInput(input)).toBeNull();
  });

  it('shows "" / empty details / no offers', () => {
    expect(formattedCost(null)).toBe('');
    expect(costDetails(null)).toEqual({ currency_symbol: '', currency_code: '', currency_position: '', values: [] });
    expect(jsonLdPrice(null)).toBeUndefined();
  });

  it('a stored cost made only of blank strings also shows as no cost', () => {
    expect(formattedCost(stored(['', ' ']))).toBe('');
    expect(costDetails(stored(['']))).toEqual({ currency_symbol: '', currency_code: '', currency_position: '', values: [] });
    expect(jsonLdPrice(stored([]))).toBeUndefined();
  });

  it('other types are no cost', () => {
    for (const input of [true, false, { a: '10' }, Symbol('x'), 10n, () => 10, new Date(0), NaN, Infinity, -Infinity]) {
      expect(costFromInput(input)).toBeNull();
    }
  });

  it('"0" inside an array, "0.0" and "00" are real costs (not PHP-empty) and show as Free', () => {
    expect(show(['0']).cost).toBe('Free');
    expect(show('0.0').cost).toBe('Free');
    expect(show('00').details.values).toEqual(['00']);
  });
});

describe('costFromInput', () => {
  it('stores a string whole and an array element by element', () => {
    expect(costFromInput('10, 20')?.values).toEqual(['10, 20']);
    expect(costFromInput(['10', 20, '30'])?.values).toEqual(['10', '20', '30']);
  });

  it('skips blank and unusable array elements', () => {
    expect(costFromInput(['', '$15', null, ['$1'], { x: 1 }, true, NaN, '$25'])).toEqual(stored(['$15', '$25'], '$', 'prefix'));
  });

  it('stores numbers as PHP prints them', () => {
    expect(costFromInput(12.5)?.values).toEqual(['12.5']);
    expect(costFromInput(-5)?.values).toEqual(['-5']);
    expect(costFromInput([0, 15])?.values).toEqual(['0', '15']);
  });

  it('splits a string on commas only for the inference', () => {
    expect(costFromInput('€5,€10')).toEqual(stored(['€5,€10'], '€', 'prefix'));
    expect(costFromInput('5 EUR,10 EUR')).toEqual(stored(['5 EUR,10 EUR'], 'EUR', 'postfix'));
  });

  it('needs every part to hold exactly one number with the same symbol', () => {
    expect(costFromInput('€6.50 - €8.50')?.currencySymbol).toBe('');
    expect(costFromInput(['$5', '€6'])?.currencySymbol).toBe('');
    expect(costFromInput(['$5', '$6 - $7'])?.currencySymbol).toBe('');
    expect(costFromInput('Free')?.currencySymbol).toBe('');
    expect(costFromInput('20')?.currencySymbol).toBe('');
    expect(costFromInput(['20', '30'])?.currencySymbol).toBe('');
  });

  it('removes every occurrence of the number and trims PHP white space only', () => {
    // Numbers "5" and "5": "€" minus "5" and "5€5" minus both "5" both give "€".
    expect(costFromInput(['€', '5€5'])).toEqual(stored(['€', '5€5'], '€', ''));
    expect(costFromInput(' \t€ 10\n')?.currencySymbol).toBe('€');
    expect(costFromInput('\u00a010')?.currencySymbol).toBe('\u00a0');
  });

  it('pairs the i-th number with the i-th part (upstream quirk)', () => {
    // The one number, 15, is paired with "Free": the candidate symbol is "Free".
    expect(costFromInput(['Free', '$15'])).toEqual(stored(['Free', '$15'], 'Free', 'prefix'));
  });

  it('position: prefix, postfix, mixed (untrimmed parts, as upstream)', () => {
    expect(costFromInput('$20')?.currencyPosition).toBe('prefix');
    expect(costFromInput('20 $')?.currencyPosition).toBe('postfix');
    expect(costFromInput(['$20', '30$'])).toEqual(stored(['$20', '30$'], '$', ''));
    expect(costFromInput('$10, $20')).toEqual(stored(['$10, $20'], '$', ''));
  });

  it('position is empty when the symbol is not found as such in any part', () => {
    // "a1b" minus "1" is "ab", which "a1b" does not contain.
    expect(costFromInput('a1b')).toEqual(stored(['a1b'], 'ab', ''));
  });
});

describe('cost_details values', () => {
  it('sorts numerically, not as text', () => {
    expect(costDetails(stored(['100', '20', '3'])).values).toEqual(['3', '20', '100']);
    expect(costDetails(stored(['10.5 - 9.75 - 10.25'])).values).toEqual(['9.75', '10.25', '10.5']);
  });

  it('collapses the same numeric value, keeping the first text', () => {
    expect(costDetails(stored(['10', '10.00', '$10', '010'])).values).toEqual(['10']);
    expect(costDetails(stored(['10.00', '10'])).values).toEqual(['10.00']);
    expect(costDetails(stored(['Free', 'FREE', 'free!'])).values).toEqual(['free']);
  });

  it('non-numeric keys sort as 0 (PHP SORT_NUMERIC), before positive numbers', () => {
    expect(costDetails(stored(['15', 'Free'])).values).toEqual(['free', '15']);
    expect(costDetails(stored(['0', 'Donation'])).values).toEqual(['0', 'donation']);
  });

  it('slugifies non-numeric text with sanitizeTitle', () => {
    expect(costDetails(stored(['Pay what you want!'])).values).toEqual(['pay-what-you-want']);
    expect(costDetails(stored(['Entrée libre'])).values).toEqual(['entree-libre']);
  });

  it('infers separators per number', () => {
    // The pattern allows one inner separator: "1.234,56" is read as "1.234" and ",56".
    expect(costDetails(stored(['1.234,56'])).values).toEqual(['.56', '1.234']);
    // Both kinds in one number only with a leading separator: the last one is the decimal.
    expect(costDetails(stored(['x.1,50'])).values).toEqual(['1.50']);
    expect(costDetails(stored(['x,1.50'])).values).toEqual(['1.50']);
    expect(costDetails(stored(['1.5'])).values).toEqual(['1.5']);
    expect(costDetails(stored(['1,5'])).values).toEqual(['1.5']);
    expect(costDetails(stored(['1,5000'])).values).toEqual(['1.5000']);
    // One "." followed by 3 digits is ambiguous: the default locale's thousands separator is ",", so it is a decimal point.
    expect(costDetails(stored(['1.000'])).values).toEqual(['1.000']);
    expect(costDetails(stored(['1.000']), '', { thousandsSeparator: '.' }).values).toEqual(['1000']);
    expect(costDetails(stored(['1,000']), '', { thousandsSeparator: '.' }).values).toEqual(['1.000']);
  });

  it('keeps the number pattern of upstream (a minus sign is ignored, separators at most two)', () => {
    expect(costDetails(stored(['-5'])).values).toEqual(['5']);
    expect(costDetails(stored(['1,000,000'])).values).toEqual(['000', '1000']);
    expect(costDetails(stored(['.50'])).values).toEqual(['.50']);
    expect(costDetails(stored(['10.'])).values).toEqual(['10.']);
  });

  it('reads two separators of a kind with the last as decimal', () => {
    expect(costDetails(stored(['x,5,50'])).values).toEqual(['5.50']);
    expect(costDetails(stored(['x,5,000'])).values).toEqual(['5000']);
  });

  it('reports the stored symbol and position as they are', () => {
    expect(costDetails(stored(['5'], '<b>', 'postfix'))).toEqual({
      currency_symbol: '<b>',
      currency_code: '',
      currency_position: 'postfix',
      values: ['5'],
    });
  });
});

describe('formattedCost', () => {
  it('uses the stored symbol and position, else the site defaults', () => {
    expect(formattedCost(stored(['20'], '€', 'postfix'))).toBe('20€');
    expect(formattedCost(stored(['20'], '€', ''))).toBe('€20');
    expect(formattedCost(stored(['20'], '', 'postfix'))).toBe('20$');
    expect(formattedCost(stored(['20']), { symbol: '£' })).toBe('£20');
    expect(formattedCost(stored(['20']), { symbol: '€', reversePosition: true })).toBe('20€');
    expect(formattedCost(stored(['20'], '', 'prefix'), { reversePosition: true })).toBe('$20');
  });

  it('treats a zero to two decimals as Free', () => {
    expect(formattedCost(stored(['0.00']))).toBe('Free');
    expect(formattedCost(stored(['0,004']))).toBe('Free');
    expect(formattedCost(stored(['0.005']))).toBe('$0.005');
    expect(formattedCost(stored(['0', '0.001']))).toBe('Free');
    expect(formattedCost(stored(['0,00']))).toBe('Free');
  });

  it('multiple entries: text and decimal-comma numbers are ignored (upstream quirk)', () => {
    expect(formattedCost(stored(['Free', '15']))).toBe('$15');
    expect(formattedCost(stored(['$1,000 - $2,000']))).toBe('Free');
    expect(formattedCost(stored(['5,50', '10']))).toBe('$10');
    expect(formattedCost(stored(['Donation', 'Gift']))).toBe('Free');
  });

  it('a lone text keeps its original spelling', () => {
    expect(formattedCost(stored(['Pay at the door']))).toBe('Pay at the door');
    expect(formattedCost(stored(['7,5']))).toBe('$7,5');
  });

  it('"1,000.50" is two numbers, "1,000" and ".50"; only the plain one counts (upstream quirk)', () => {
    expect(costDetails(stored(['1,000.50'])).values).toEqual(['.50', '1000']);
    expect(formattedCost(stored(['1,000.50']))).toBe('$.50');
  });

  it('shows equal ends once', () => {
    expect(formattedCost(stored(['10', '10']))).toBe('$10');
    expect(formattedCost(stored(['$5 - $5']))).toBe('$5');
  });

  it('HTML-escapes the result like esc_html', () => {
    expect(formattedCost(stored(['Tom & Jerry\'s "<b>"']))).toBe('Tom &amp; Jerry&#039;s &quot;&lt;b&gt;&quot;');
    expect(formattedCost(stored(['5'], '<i>', 'prefix'))).toBe('&lt;i&gt;5');
    expect(formattedCost(stored(['Caf&eacute;']))).toBe('Caf&eacute;');
  });

  it('uses translated words', () => {
    const fr = { free: 'Gratuit', rangeSeparator: ' à ' };
    expect(formattedCost(stored(['0', '15'], '€', 'postfix'), fr)).toBe('Gratuit à 15€');
    expect(jsonLdPrice(stored(['0']), fr)).toBe('0');
    expect(jsonLdPrice(stored(['Free']), fr)).toBe('Free');
  });

  it('exposes the upstream defaults', () => {
    expect(DEFAULT_COST_SETTINGS).toEqual({
      symbol: '$',
      reversePosition: false,
      thousandsSeparator: ',',
      free: 'Free',
      rangeSeparator: ' – ',
    });
  });
});

describe('jsonLdPrice', () => {
  it('drops the symbol and keeps ranges; only the lone free word becomes "0"', () => {
    expect(jsonLdPrice(stored(['20$'], '$', 'postfix'))).toBe('20');
    expect(jsonLdPrice(stored(['0$', '20$', '30$'], '$', 'postfix'))).toBe('Free – 30');
    expect(jsonLdPrice(stored(['Donation']))).toBe('Donation');
    expect(jsonLdPrice(stored(['5,50 7,50']))).toBe('0');
  });
});

describe('REDACTED_COST_DETAILS', () => {
  it('has the redaction shape and key order of responses.md §7', () => {
    expect(JSON.stringify(REDACTED_COST_DETAILS)).toBe('{"currency_symbol":"","currency_position":"","currency_code":"","values":[]}');
  });

  it('cannot be altered by a consumer', () => {
    expect(Object.isFrozen(REDACTED_COST_DETAILS)).toBe(true);
    expect(Object.isFrozen(REDACTED_COST_DETAILS.values)).toBe(true);
  });
});

describe('helpers', () => {
  it('compareDecimals is exact, also beyond float range', () => {
    expect(compareDecimals('10', '9.99')).toBeGreaterThan(0);
    expect(compareDecimals('0.5', '0.45')).toBeGreaterThan(0);
    expect(compareDecimals('010.50', '10.5')).toBe(0);
    expect(compareDecimals('.5', '0.5')).toBe(0);
    expect(compareDecimals('9'.repeat(400), '9'.repeat(399) + '8')).toBeGreaterThan(0);
  });

  it('normalizeSeparators', () => {
    expect(normalizeSeparators('25,55', ',')).toBe('25.55');
    expect(normalizeSeparators('1,000', ',')).toBe('1000');
    expect(normalizeSeparators(',000', ',')).toBe('000');
    expect(normalizeSeparators('1.234,5', ',')).toBe('1234.5');
  });

  it('phpTrim trims only PHP white space', () => {
    expect(phpTrim(' \t\n\r\0\x0Bx\x0B ')).toBe('x');
    expect(phpTrim('\u00a0x\u2003')).toBe('\u00a0x\u2003');
  });
});

describe('hostile input never throws and stays fast', () => {
  const MB = 1 << 20;

  /** Runs every public function on an input and returns the elapsed milliseconds. */
  function timeAll(input: unknown): number {
    const start = performance.now();
    const s = costFromInput(input);
    formattedCost(s);
    costDetails(s);
    jsonLdPrice(s);
    return performance.now() - start;
  }

  const bigInputs: Array<[string, () => unknown]> = [
    ['1 MB of digits', () => '7'.repeat(MB)],
    ['1 MB of "1 "', () => '1 '.repeat(MB / 2)],
    ['1 MB of distinct numbers', () => Array.from({ length: 150_000 }, (_, i) => i).join(' ')],
    ['1 MB of "&"', () => '&'.repeat(MB)],
    ['1 MB of "<script>"', () => '<script>'.repeat(MB / 8)],
    ['1 MB of "<!--"', () => '<!--'.repeat(MB / 4)],
    ['1 MB of spaces then x', () => ' '.repeat(MB) + 'x'],
    ['1 MB of commas', () => ','.repeat(MB)],
    ['1 MB of ",1"', () => ',1'.repeat(MB / 2)],
    ['1 MB of "1,"', () => '1,'.repeat(MB / 2)],
    ['1 MB of ".5."', () => '.5.'.repeat(MB / 3)],
    ['1 MB of "$1"', () => '$1'.repeat(MB / 2)],
    ['1 MB of emoji', () => '😀'.repeat(MB / 2)],
    ['1 MB of "&a"', () => '&a'.repeat(MB / 2)],
    ['1 MB of "&#1"', () => '&#1'.repeat(MB / 3)],
    ['1 MB of "%"', () => '%'.repeat(MB)],
    ['1 MB text, digit at the end', () => 'a'.repeat(MB) + '5'],
    ['100k array of "&"', () => Array.from({ length: 100_000 }, () => '&&&&&&&&')],
    ['100k array of distinct texts', () => Array.from({ length: 20_000 }, (_, i) => `x${String.fromCharCode(97 + (i % 26))}`)],
    ['100k array of numbers', () => Array.from({ length: 100_000 }, (_, i) => i * 1.5)],
    ['array of 1 MB strings', () => ['$' + '9'.repeat(MB), '&'.repeat(MB), '9'.repeat(MB) + '$']],
  ];
  it.each(bigInputs)('%s', (_, make) => {
    const input = make();
    // Linear work takes well under a second here; catastrophic backtracking would take minutes.
    expect(timeAll(input)).toBeLessThan(5000);
  });

  it('a 1 MB number keeps its exact digits and order', () => {
    const big = '9'.repeat(MB);
    const s = costFromInput(['1', big, '5']);
    expect(costDetails(s).values).toEqual(['1', '5', big]);
    expect(formattedCost(s)).toBe(`$1 – $${big}`);
  });

  it('a 1 MB text gets a slug key from its start', () => {
    const details = costDetails(costFromInput('a'.repeat(MB)));
    expect(details.values).toHaveLength(1);
    expect(details.values[0]).toMatch(/^a{1,1000}$/);
  });

  it('odd values and odd Unicode', () => {
    const odd: unknown[] = [
      '\uD800',
      '\uDC00abc',
      'a\uD83D',
      '\uD83D\uDE00 10',
      '\u0000',
      '\u202E10$',
      '١٢٣',
      '１２',
      '½',
      'e\u0301',
      '\uFEFF5',
      ' ',
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      1e21,
      -1,
      [[[[[[['1']]]]]]],
      Object.create(null),
      new Proxy({}, {}),
      [undefined, null, NaN, Infinity, '5'],
      'x'.repeat(999) + '😀' + 'y',
    ];
    for (const input of odd) {
      expect(() => timeAll(input)).not.toThrow();
    }
    expect(show('١٢٣').cost).toBe('١٢٣');
    expect(show('\uD800').details.values).toHaveLength(1);
    expect(show('\uD83D\uDE00 10').cost).toBe('\uD83D\uDE0010');
    expect(show('\uD83D\uDE00 10').stored?.currencySymbol).toBe('\uD83D\uDE00');
    expect(show([undefined, null, NaN, Infinity, '5']).cost).toBe('$5');
  });

  it('a deeply nested array is skipped without recursion', () => {
    let deep: unknown = '5';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(costFromInput(deep)).toBeNull();
    expect(costFromInput(['$5', deep])).toEqual(stored(['$5'], '$', 'prefix'));
  });

  it('parseCostEntries tolerates an empty list', () => {
    expect(parseCostEntries([], ',')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { importedCost, type ShownCost } from '../../src/import/cost.js';
import { costDetails, costFromInput, formattedCost } from '../../src/resources/events/cost.js';

// Issue 29, item 1: the cost strings an import stores are those that render here as the source
// shows them (`cost`, `cost_details.values`), whatever the source's own strings were.

/** What a source built on this library's cost functions shows for a cost written as `input`. */
function shownFor(input: unknown): ShownCost {
  const stored = costFromInput(input);
  const details = costDetails(stored);
  return { cost: formattedCost(stored), values: details.values, currencySymbol: details.currency_symbol, currencyPosition: details.currency_position };
}

describe('importedCost', () => {
  it.each([
    ['$25,50', ['$25,50']],
    ['Free', ['Free']],
    ['10 – 20 €', ['$10 – $20']],
    ['€ 5', ['€5']],
    ['Donation', ['Donation']],
    [
      ['0', '15'],
      ['0', '15'],
    ],
    [
      ['Free', '5'],
      ['free', '5'],
    ],
    [
      ['5,50', '7,50'],
      ['5,50', '7,50'],
    ],
    ['£1.000,50', ['$1.000', ',50']],
    ['1 500 €', ['$1 – $500']],
  ])('%j is stored as strings that render as the source shows it', (input, strings) => {
    const shown = shownFor(input);
    const imported = importedCost(shown);
    expect(imported.stored?.values).toEqual(strings);
    expect(imported).toMatchObject({ cost: shown.cost, values: shown.values });
    expect({ cost: formattedCost(imported.stored), values: costDetails(imported.stored).values }).toEqual({ cost: shown.cost, values: shown.values });
  });

  it('stores no cost for none', () => {
    expect(importedCost(shownFor('')).stored).toBeNull();
    expect(importedCost(shownFor('0')).stored).toBeNull();
  });

  it('keeps the symbol and position the source shows', () => {
    const imported = importedCost(shownFor('€ 5'));
    expect(imported.stored).toEqual({ values: ['€5'], currencySymbol: '€', currencyPosition: 'prefix' });
  });

  it('stores a cost no candidate renders the same as shown, and says how it renders here', () => {
    // The original in French shows a zero cost as `Gratuit`.
    const imported = importedCost({ cost: 'Gratuit', values: ['0'], currencySymbol: '', currencyPosition: '' });
    expect(imported).toEqual({ stored: { values: ['Gratuit'], currencySymbol: '', currencyPosition: '' }, cost: 'Gratuit', values: ['gratuit'] });
  });
});

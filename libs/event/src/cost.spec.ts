import { parseCost } from './cost';

describe('parseCost (SPEC §4.1, §11.8)', () => {
  it.each([
    ['', { currency_symbol: '', currency_code: '', currency_position: '', values: [] }],
    ['15', { currency_symbol: '', currency_code: '', currency_position: '', values: [15] }],
    ['$15', { currency_symbol: '$', currency_code: '', currency_position: 'prefix', values: [15] }],
    ['15€', { currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: [15] }],
    ['20$', { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: [20] }],
    ['20 $', { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: [20] }],
    ['Free', { currency_symbol: '', currency_code: '', currency_position: '', values: [0] }],
    ['0', { currency_symbol: '', currency_code: '', currency_position: '', values: [0] }],
    ['10 – 20 €', { currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: [10, 20] }],
    ['EUR 15', { currency_symbol: '', currency_code: 'EUR', currency_position: '', values: [15] }],
    ['£12.50 or £8', { currency_symbol: '£', currency_code: '', currency_position: 'prefix', values: [8, 12.5] }],
    ['Free for members, 25 USD', { currency_symbol: '', currency_code: 'USD', currency_position: '', values: [0, 25] }],
  ])('reads %p', (cost, expected) => {
    expect(parseCost(cost)).toEqual(expected);
  });

  it('reads a text again as it read it the first time, each answer its own details', () => {
    const first = parseCost('10 – 20 €');
    first.values.push(99);
    first.currency_symbol = 'changed';
    expect(parseCost('10 – 20 €')).toEqual({ currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: [10, 20] });
  });

  it('reads a long text without keeping it', () => {
    const long = `${'a'.repeat(120)} 30 €`;
    expect(parseCost(long)).toEqual({ currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: [30] });
    expect(parseCost(long)).toEqual({ currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: [30] });
  });
});

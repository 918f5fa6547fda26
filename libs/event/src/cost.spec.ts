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
});

import { arrayOf, Field, NUMBER as NUMBER_SCHEMA, STRING } from '@calendar/shared/http';

/** The currency codes recognised in cost texts (ISO 4217, the ones calendars meet). */
const CURRENCY_CODES = new Set([
  'AED', 'ARS', 'AUD', 'BGN', 'BRL', 'CAD', 'CHF', 'CLP', 'CNY', 'COP', 'CZK', 'DKK', 'EGP', 'EUR', 'GBP', 'HKD', 'HUF', 'IDR',
  'ILS', 'INR', 'ISK', 'JPY', 'KRW', 'MAD', 'MXN', 'MYR', 'NGN', 'NOK', 'NZD', 'PEN', 'PHP', 'PKR', 'PLN', 'RON', 'RUB', 'SAR',
  'SEK', 'SGD', 'THB', 'TRY', 'TWD', 'UAH', 'USD', 'VND', 'ZAR',
]);

/** `cost_details` of SPEC §4.1: the cost text read as currency and amounts. */
export class CostDetails {
  @Field(STRING)
  currency_symbol: string;

  @Field({ ...STRING, description: 'ISO 4217 code, "" when none is recognised' })
  currency_code: string;

  @Field({ type: 'string', enum: ['prefix', 'postfix', ''] })
  currency_position: 'prefix' | 'postfix' | '';

  @Field({ ...arrayOf(NUMBER_SCHEMA), description: 'The amounts, 0 for free' })
  values: number[];
}

const NUMBER = /\d+(?:[.,]\d+)*/g;
const FREE = /\b(free|gratuit|gratis|kostenlos)\b|免费/i;

function toNumber(text: string): number {
  // "1,234.50" and "1.234,50" and "12,5": the last separator followed by 1-2 digits is the decimal one.
  const match = /^(.*?)([.,](\d{1,2}))?$/.exec(text) as RegExpExecArray;
  const whole = match[1].replace(/[.,]/g, '');
  return Number(match[3] !== undefined ? `${whole}.${match[3]}` : whole);
}

/**
 * Reads a cost text as entered (SPEC §4.1, §11.8): the numbers in it (ascending), a currency symbol glued
 * before or after the first number, and an ISO 4217 code present in the text. "Free" is 0.
 */
export function parseCost(cost: string): CostDetails {
  let known = cost.length <= READ_COST_LENGTH ? readCosts.get(cost) : undefined;
  if (!known) {
    known = readCost(cost);
    if (cost.length <= READ_COST_LENGTH) {
      if (readCosts.size >= READ_COSTS_KEPT) readCosts.clear();
      readCosts.set(cost, known);
    }
  }
  // A copy: each answer owns its details.
  return { currency_symbol: known.currency_symbol, currency_code: known.currency_code, currency_position: known.currency_position, values: known.values.slice() };
}

/**
 * The details of the cost texts read lately: a calendar repeats a few texts ("Free", "$10") over thousands of
 * events, and a list page read each of its events' with six regular expressions.
 */
const readCosts = new Map<string, CostDetails>();
const READ_COSTS_KEPT = 1_000;
const READ_COST_LENGTH = 100;

function readCost(cost: string): CostDetails {
  const text = cost.trim();
  const details: CostDetails = { currency_symbol: '', currency_code: '', currency_position: '', values: [] };
  if (text === '') return details;
  const code = text.match(/\b[A-Z]{3}\b/g)?.find((candidate) => CURRENCY_CODES.has(candidate));
  if (code) details.currency_code = code;
  const numbers = [...text.matchAll(NUMBER)];
  const values = numbers.map((match) => toNumber(match[0]));
  if (FREE.test(text) && !values.includes(0)) values.push(0);
  details.values = [...new Set(values)].sort((a, b) => a - b);
  const symbolAround = (match: RegExpMatchArray | undefined, side: 'before' | 'after'): string => {
    if (!match || match.index === undefined) return '';
    const raw =
      side === 'before'
        ? (/([^\d\s]+)\s*$/.exec(text.slice(0, match.index))?.[1] ?? '')
        : (/^\s*([^\d\s]+)/.exec(text.slice(match.index + match[0].length))?.[1] ?? '');
    const symbol = raw.replace(/^[-–—~/,;:]+|[-–—~/,;:]+$/gu, '');
    return symbol && !CURRENCY_CODES.has(symbol) && !/[A-Za-z]{2,}/.test(symbol) ? symbol : '';
  };
  // The symbol glued to the first number; for a range ("10 – 20 €"), the one glued to the last.
  const first = numbers[0];
  const last = numbers[numbers.length - 1];
  const candidates: [string, 'prefix' | 'postfix'][] = [
    [symbolAround(first, 'before'), 'prefix'],
    [symbolAround(first, 'after'), 'postfix'],
    [symbolAround(last, 'after'), 'postfix'],
    [symbolAround(last, 'before'), 'prefix'],
  ];
  const found = candidates.find(([symbol]) => symbol !== '');
  if (found) {
    details.currency_symbol = found[0];
    details.currency_position = found[1];
  }
  return details;
}

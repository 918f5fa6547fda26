import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** What is stored of an event's password (SPEC §4.7): a random salt and the scrypt hash, both in base64. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('base64')}:${scryptSync(password, salt, 32).toString('base64')}`;
}

/** Whether `password` is the one an event's stored hash was made from. */
export function passwordMatches(password: string, stored: string): boolean {
  const [salt, hash] = stored.split(':');
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

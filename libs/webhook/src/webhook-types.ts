import type { ChangeAction, ChangedKind } from '@calendar/shared/database';

/** The kinds of record messages are about (SPEC §17.2). */
export const MESSAGE_KINDS: readonly ChangedKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];

/** Every message type: `<kind>.created|updated|deleted`. */
export const MESSAGE_TYPES: readonly string[] = MESSAGE_KINDS.flatMap((kind) => ['created', 'updated', 'deleted'].map((verb) => `${kind}.${verb}`));

/** What an endpoint's `types` may list: a type, or `<kind>.*` for every type of a kind. */
export const TYPE_PATTERNS: readonly string[] = [...MESSAGE_TYPES, ...MESSAGE_KINDS.map((kind) => `${kind}.*`)];

/** The message an endpoint's ping sends (always, whatever its types). */
export const PING_TYPE = 'webhook.ping';

/** The type of the message a change makes: a trash is `deleted`, a restore `updated` (SPEC §17.2). */
export function messageType(kind: ChangedKind, action: ChangeAction): string {
  const verb = action === 'created' ? 'created' : action === 'updated' ? 'updated' : 'deleted';
  return `${kind}.${verb}`;
}

/** Whether an endpoint subscribed to `patterns` (none: every type) receives messages of `type`. */
export function subscribed(patterns: readonly string[], type: string): boolean {
  if (type === PING_TYPE || patterns.length === 0) return true;
  const kind = type.slice(0, type.indexOf('.'));
  return patterns.includes(type) || patterns.includes(`${kind}.*`);
}

/**
 * When the attempt after `attempts` failed ones is due (Standard Webhooks' schedule: at once, 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), with ±20 % jitter; null once all ten were made (the message is given up).
 */
export function retryDelayMs(attempts: number, random = Math.random()): number | null {
  const delays = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map((seconds) => seconds * 1000);
  const delay = delays[attempts - 1];
  if (delay === undefined) return null;
  return Math.round(delay * (0.8 + 0.4 * random));
}

import { createHmac, randomBytes } from 'node:crypto';

/** A new endpoint secret, as Standard Webhooks writes them: `whsec_` and the base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A new message id (`msg_` and 24 random characters), the same on every attempt of the message. */
export function newMessageId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`;
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`
 * keyed with the secret's bytes, one per key (during a rotation, the new key's first), space-separated.
 */
export function signature(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

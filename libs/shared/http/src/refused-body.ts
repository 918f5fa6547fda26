import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { DRAIN_LIMIT_BYTES } from './constants';

/**
 * The answer to a request whose body was refused (413) while the client may still be sending it (SPEC §2.1).
 *
 * Node closes a connection as soon as an answer marked `Connection: close` is written; a client still sending
 * then meets a reset (`EPIPE`) before it reads the answer. So the answer is written at once, as a stream with its
 * length, and the stream ends (which lets Node close the connection) only once the client has sent the rest of
 * its body, read and thrown away here up to `limit` bytes, or has gone. Returns `payload` as it is when nothing
 * is left to read.
 */
export function answerWhileDraining(raw: IncomingMessage, payload: string | Buffer, limit = DRAIN_LIMIT_BYTES): { body: Readable; length: number } | null {
  if (raw.complete || raw.readableEnded || raw.destroyed) return null;
  const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const body = new Readable({ read: () => undefined });
  body.push(bytes);
  let discarded = 0;
  const finish = () => {
    raw.off('data', discard);
    raw.off('end', finish);
    raw.off('close', finish);
    raw.off('error', finish);
    body.push(null);
  };
  const discard = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limit) finish();
  };
  raw.on('data', discard);
  raw.once('end', finish);
  raw.once('close', finish);
  raw.once('error', finish);
  raw.resume();
  return { body, length: bytes.length };
}

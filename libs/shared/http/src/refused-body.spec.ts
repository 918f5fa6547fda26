import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { answerWhileDraining } from './refused-body';

/** A request body still arriving: a stream the test writes into. */
function arriving(): PassThrough & { complete: boolean } {
  return Object.assign(new PassThrough(), { complete: false });
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('answerWhileDraining', () => {
  it('gives the answer at once and ends it only when the client has sent the rest of its body', async () => {
    const request = arriving();
    const answer = answerWhileDraining(request as unknown as IncomingMessage, '{"code":"too-large"}', 100);
    expect(answer?.length).toBe(20);
    const first = await new Promise<Buffer>((resolve) => answer!.body.once('data', resolve));
    expect(first.toString()).toBe('{"code":"too-large"}');
    let ended = false;
    answer!.body.on('end', () => (ended = true)).resume();
    request.write(Buffer.alloc(60));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(false);
    request.end(Buffer.alloc(30));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(true);
  });

  it('stops reading past the limit', async () => {
    const request = arriving();
    const answer = answerWhileDraining(request as unknown as IncomingMessage, 'refused', 100)!;
    const read = text(answer.body);
    request.write(Buffer.alloc(80));
    request.write(Buffer.alloc(80));
    expect(await read).toBe('refused');
    expect(request.listenerCount('data')).toBe(0);
  });

  it('leaves a request that has nothing left to send alone', () => {
    const request = Object.assign(arriving(), { complete: true });
    expect(answerWhileDraining(request as unknown as IncomingMessage, 'refused')).toBeNull();
  });
});

import { Socket } from 'node:net';

// This file imports no workspace alias: the e2e jest configuration loads it before aliases are known.

/** The Redis the tests of shared rate-limit counters use: REDIS_TEST_URL, else the local one. */
export function redisServerUrl(): string {
  return process.env['REDIS_TEST_URL'] ?? 'redis://127.0.0.1:6379';
}

/** Whether a Redis answers PING at `url` within two seconds. */
export function redisReachable(url = redisServerUrl()): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    let answer = '';
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('error', () => done(false));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.connect(Number(port || 6379), hostname, () => socket.write('PING\r\n'));
  });
}

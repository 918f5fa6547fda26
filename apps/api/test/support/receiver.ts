import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A receiver on loopback: answers each request with the next status of its script (200 once it runs out). */
export class Receiver {
  readonly received: { headers: IncomingHttpHeaders; body: string; status: number }[] = [];
  private script: (number | { status: number; headers: Record<string, string> })[] = [];
  private server: Server;
  url = '';
  /** How long each answer is held back (a slow receiver). */
  delayMs = 0;

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const next = this.script.shift() ?? 200;
        const { status, headers } = typeof next === 'number' ? { status: next, headers: {} } : next;
        this.received.push({ headers: request.headers, body, status });
        setTimeout(() => response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(`answer ${status}`), this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  answer(...script: (number | { status: number; headers: Record<string, string> })[]): void {
    this.script = script;
  }

  /** Waits until `count` requests arrived (`ms` at most: a loaded machine delivers slower). */
  async waitFor(count: number, ms = 10_000): Promise<void> {
    for (let waited = 0; this.received.length < count; waited += 20) {
      if (waited > ms) throw new Error(`the receiver got ${this.received.length} requests, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  bodies(): { type: string; data: { id: number; kind: string; object: Record<string, unknown> | null } }[] {
    return this.received.map((request) => JSON.parse(request.body));
  }

  /** The port it listens on. */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }
}

import { Webhook } from 'standardwebhooks';
import { hostProblem, isInternalAddress, urlProblem } from './address';
import { newMessageId, newSecret, signature } from './signing';

describe('signing (Standard Webhooks)', () => {
  it('signs so that the standardwebhooks package verifies, with either key during a rotation', () => {
    const [current, previous] = [newSecret(), newSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = newMessageId();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'event.created', timestamp: new Date().toISOString(), data: { id: 1 } });
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature([current, previous], id, timestamp, body) };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });
});

describe('endpoint addresses (SPEC §17.1)', () => {
  it('tells loopback, private, link-local and unique-local addresses from public ones', () => {
    const internal = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd12::1', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'];
    const external = ['8.8.8.8', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'];
    expect(internal.filter((address) => !isInternalAddress(address))).toEqual([]);
    expect(external.filter(isInternalAddress)).toEqual([]);
  });

  it('takes absolute http and https URLs only', () => {
    expect([urlProblem('https://hooks.example.org/in'), urlProblem('http://x.example:8080/a?b=c')]).toEqual([null, null]);
    expect([urlProblem('ftp://x.example/'), urlProblem('/relative'), urlProblem('https://user:pw@x.example/')]).toEqual([
      'must be an absolute http or https URL',
      'must be an absolute http or https URL',
      'must not carry credentials',
    ]);
  });

  it('checks the address a host name resolves to, and literal addresses as they are', async () => {
    expect(await hostProblem('http://127.0.0.1:8080/hook')).toBe('resolves to 127.0.0.1, a loopback, private, link-local or unique-local address (WEBHOOK_ALLOW_PRIVATE=true allows it)');
    expect(await hostProblem('http://[::1]/hook')).toMatch(/^resolves to ::1, /);
    expect(await hostProblem('http://localhost/hook')).toMatch(/^resolves to (127\.0\.0\.1|::1), /);
    expect(await hostProblem('http://203.0.113.7/hook')).toBeNull();
    expect(await hostProblem('https://no-such-host.invalid/hook')).toBe('the host no-such-host.invalid does not resolve');
  });
});

// Creates through three instances of the service, one per Galera node (tools/galera/cluster.sh, docs/galera.md),
// ten at a time in turn, each with an Idempotency-Key, and reads each created event at once through the next
// instance: `node tools/galera/load.mjs [creates] [token]` prints the answers' statuses, the reads that did not
// answer 200, and each instance's total of the events made.
const total = Number(process.argv[2] ?? 300);
const token = process.argv[3] ?? process.env.ADMIN_TOKEN;
const ports = (process.env.PORTS ?? '3001,3002,3003').split(',');
const bases = ports.map((port) => `http://127.0.0.1:${port}/wp-json/calendar/events/v1`);
const statuses = {};
const notRead = {};
const ids = [];
let next = 0;

async function create(index) {
  const response = await fetch(`${bases[index % bases.length]}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `load-${process.pid}-${index}` },
    body: JSON.stringify({ title: `Cluster load ${index}`, start_date: '2030-05-01 19:00', end_date: '2030-05-01 21:00' }),
  });
  statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  if (response.status !== 201) return;
  const { id } = await response.json();
  ids.push(id);
  const read = await fetch(`${bases[(index + 1) % bases.length]}/events/${id}`);
  if (read.status !== 200) notRead[read.status] = (notRead[read.status] ?? 0) + 1;
}

const started = Date.now();
await Promise.all(
  Array.from({ length: 10 }, async () => {
    while (next < total) await create(next++);
  }),
);
const seconds = (Date.now() - started) / 1000;
const totals = await Promise.all(bases.map(async (base) => (await (await fetch(`${base}/events?start_date=2030-05-01&end_date=2030-05-01&per_page=1`)).json()).total));
console.log(JSON.stringify({ statuses, notRead, created: ids.length, distinct: new Set(ids).size, totals, createsPerSecond: Math.round(ids.length / seconds) }));

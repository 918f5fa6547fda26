// The ceiling of SPEC §10.2: a plain Node.js HTTP server, no framework, that answers every request with the same
// bytes (the service's default 10-event page, read from a file). `node ceiling-server.js <file> <content type> <port>`;
// prints `ready` once it listens. Plain JavaScript, run by node itself, so that nothing but Node.js is measured.
const { createServer } = require('node:http');
const { readFileSync } = require('node:fs');

const [file, type, port] = process.argv.slice(2);
const body = readFileSync(file);
createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': type, 'content-length': body.length });
  response.end(body);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));

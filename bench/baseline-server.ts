// B1: the ceiling of this machine for a response of a given size — a bare node:http server answering every
// request with the same bytes. Usage: node bench/baseline-server.ts <port> <file with the response body>
import http from 'node:http';
import fs from 'node:fs';

const [port, file] = process.argv.slice(2);
if (port === undefined || file === undefined)
  throw new Error('usage: node bench/baseline-server.ts <port> <file with the response body>');
const body = fs.readFileSync(file);
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));

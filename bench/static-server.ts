// The static baseline of S8: a bare node:http server answering each path of a manifest (path -> file, written by
// bench/sync-load.ts) with that file's bytes, from memory. Usage: node bench/static-server.ts <port> <manifest>
import http from 'node:http';
import fs from 'node:fs';

const [port, manifestFile] = process.argv.slice(2);
if (port === undefined || manifestFile === undefined)
  throw new Error('usage: node bench/static-server.ts <port> <manifest.json>');
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, string>;
const bodies = new Map(Object.entries(manifest).map(([p, file]) => [p, fs.readFileSync(file)]));
http
  .createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    if (req.url === '/ready') return res.end('ok');
    if (!body) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1');

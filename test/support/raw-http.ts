// Raw HTTP/1.1 over a real socket: for requests no HTTP client would send (broken framing, stalled clients).
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The whole text the server wrote before it closed the connection. */
  text: string;
}

export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: end < 0 ? '' : text.slice(end + 4), text };
}

/**
 * Writes `chunks` to a new connection (without ending it: a stalled client) and resolves with what the server
 * wrote once the server closes the connection.
 */
export function rawExchange(port: number, chunks: Array<string | Buffer>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (d) => received.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(received).toString('latin1'))));
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
  });
}

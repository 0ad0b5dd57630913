'use strict';
// Loopback HTTP/1.1 peers for the integration tests: a Node http server for
// well-formed behaviour and a raw TCP server for byte-exact and malformed
// answers. Prints {"http":port,"raw":port,"http6":port} on stdout (http6:
// the Node server again, on ::1), runs until stdin ends.
const http = require('http');
const net = require('net');
const zlib = require('zlib');
const { execFileSync } = require('child_process');
const { bomb } = require('./bombs');

const TEXT = 'hello compressed world '.repeat(200);
let zstdBody = null;
try {
  zstdBody = execFileSync('zstd', ['-q', '-c'], { input: Buffer.from(TEXT) });
} catch (e) {
  zstdBody = null;
}

function send(res, status, headers, body) {
  res.writeHead(status, headers);
  res.end(body);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const parts = url.pathname.split('/').filter(Boolean);
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    switch (parts[0]) {
      case 'echo':
        return send(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify({
          method: req.method, url: req.url, rawHeaders: req.rawHeaders,
          body: body.toString('base64'), httpVersion: req.httpVersion,
          remote: req.socket.remoteAddress,
        }));
      case 'delay': {
        const ms = Math.min(Number(parts[1] || 0), 60000);
        const t = setTimeout(() => send(res, 200, { 'Content-Type': 'text/plain' }, 'waited ' + ms), ms);
        res.on('close', () => clearTimeout(t));
        return;
      }
      case 'status':
        return send(res, Number(parts[1]), { 'Content-Type': 'text/plain' }, req.method === 'HEAD' ? undefined : 'status ' + parts[1]);
      case 'set-cookie': {
        const list = [];
        for (const [k, v] of url.searchParams) list.push(`${k}=${v}; Path=/`);
        res.setHeader('Set-Cookie', list);
        return send(res, 200, { 'Content-Type': 'text/plain' }, 'set');
      }
      case 'set-cookie-raw':
        res.setHeader('Set-Cookie', url.searchParams.getAll('c'));
        return send(res, 200, { 'Content-Type': 'text/plain' }, 'set');
      case 'cookies':
        return send(res, 200, { 'Content-Type': 'text/plain' }, req.headers.cookie || '');
      case 'redirect': {
        const n = Number(parts[1] || 0);
        const code = Number(url.searchParams.get('code') || 302);
        if (n <= 0) return send(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify({ method: req.method, body: body.toString(), rawHeaders: req.rawHeaders }));
        return send(res, code, { Location: `/redirect/${n - 1}?code=${code}` }, '');
      }
      case 'redirect-to':
        return send(res, Number(url.searchParams.get('code') || 302), { Location: url.searchParams.get('url') }, '');
      case 'redirect-set-cookie':
        res.setHeader('Set-Cookie', 'hop=1; Path=/');
        return send(res, 302, { Location: '/cookies' }, '');
      case 'loop':
        return send(res, 302, { Location: '/loop' }, '');
      case 'gzip':
        return send(res, 200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }, zlib.gzipSync(TEXT));
      case 'deflate':
        return send(res, 200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'deflate' }, zlib.deflateSync(TEXT));
      case 'deflate-raw':
        return send(res, 200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'deflate' }, zlib.deflateRawSync(TEXT));
      case 'br':
        return send(res, 200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'br' }, zlib.brotliCompressSync(Buffer.from(TEXT)));
      case 'zstd':
        if (!zstdBody) return send(res, 500, {}, 'no zstd');
        return send(res, 200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'zstd' }, zstdBody);
      case 'bad-gzip':
        return send(res, 200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }, 'this is not gzip at all');
      case 'latin1':
        return send(res, 200, { 'Content-Type': 'text/plain; charset=iso-8859-1' }, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      case 'shift_jis':
        // "日本" in Shift_JIS
        return send(res, 200, { 'Content-Type': 'text/html' }, Buffer.concat([Buffer.from('<meta charset="shift_jis">'), Buffer.from([0x93, 0xfa, 0x96, 0x7b])]));
      case 'every-byte': {  // every byte below 0x80, then UTF-8 that Go's JSON encoder treats apart
        const ascii = Buffer.from(Array.from({ length: 128 }, (_, i) => i));
        return send(res, 200, { 'Content-Type': 'text/plain; charset=utf-8' },
          Buffer.concat([ascii, Buffer.from('\u2028 \u2029 \u00e9 \ufffd \u{1f600}'), Buffer.from([0xff, 0xc3, 0x28])]));
      }
      case 'bom':  // a UTF-8 byte order mark and nothing else: text that converts to ""
        return send(res, 200, { 'Content-Type': 'text/plain' }, Buffer.from([0xef, 0xbb, 0xbf]));
      case 'png':
        return send(res, 200, { 'Content-Type': 'image/png' }, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
      case 'reflect': {  // the request's body as the answer's, chunked in 1 MiB writes; ?type= its Content-Type
        res.writeHead(200, { 'Content-Type': url.searchParams.get('type') || 'text/plain' });
        for (let at = 0; at < body.length; at += 1 << 20) res.write(body.subarray(at, at + (1 << 20)));
        return res.end();
      }
      case 'chunked':
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('chunk one,');
        setTimeout(() => { res.write('chunk two,'); res.end('end'); }, 10);
        return;
      case 'port-after': {  // which client connection carried this request
        const ms = Math.min(Number(parts[1] || 0), 60000);
        const port = String(req.socket.remotePort);
        const t = setTimeout(() => send(res, 200, { 'Content-Type': 'text/plain' }, port), ms);
        res.on('close', () => clearTimeout(t));
        return;
      }
      case 'bomb': {  // /bomb/<br|gzip|deflate>/<MiB of zeros>
        const mib = Math.min(Number(parts[2] || 1), 4096);
        return bomb(parts[1], mib).then((b) => {
          if (!b) return send(res, 404, {}, 'no such encoding');
          send(res, 200, { 'Content-Type': 'application/octet-stream', 'Content-Encoding': parts[1] }, b);
        });
      }
      case 'endless': {  // chunked 'a's, 1 MiB at a time, until the client leaves (4 GiB at most)
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        const chunk = Buffer.alloc(1 << 20, 0x61);
        let sent = 0;
        const pump = () => {
          while (!res.destroyed && sent < 4096) {
            sent++;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => {});
        return pump();
      }
      case 'claims': {  // a head announcing /claims/<n> bytes, then 16 of them and silence
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': parts[1] });
        res.write(Buffer.alloc(16, 0x61));
        const t = setTimeout(() => res.destroy(), 30000);
        res.on('close', () => clearTimeout(t));
        return;
      }
      case 'big': {
        const n = Math.min(Number(parts[1] || 1), 256 << 20);
        return send(res, 200, { 'Content-Type': 'application/octet-stream' }, Buffer.alloc(n, 0x61));
      }
      default:
        return send(res, 404, { 'Content-Type': 'text/plain' }, 'not found');
    }
  });
});
server.keepAliveTimeout = 30000;

// Raw answers, chosen by the request path.
const RAW = {
  '/raw/echo-head': null,  // answers with the exact request head as body
  '/raw/malformed-status': 'HTTP/1.1 abc OK\r\nContent-Length: 0\r\n\r\n',
  '/raw/garbage': 'SSH-2.0-OpenSSH_9.2\r\n',
  '/raw/bad-chunk': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  '/raw/huge-header': 'HTTP/1.1 200 OK\r\nX-Big: ' + 'a'.repeat(64 * 1024) + '\r\nContent-Length: 2\r\n\r\nok',
  '/raw/extra-body': 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloEXTRA-BYTES',
  '/raw/1xx': 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfinal',
  '/raw/http10': 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nclose-delimited body',
  '/raw/no-response': '',
  '/raw/204': 'HTTP/1.1 204 No Content\r\nX-A: b\r\n\r\n',
  '/raw/multi-header': 'HTTP/1.1 200 OK\r\nx-custom-thing: one\r\nX-Custom-Thing: two\r\ncontent-type: text/plain\r\nContent-Length: 2\r\n\r\nok',
};

const raw = net.createServer((sock) => {
  let buf = Buffer.alloc(0);
  sock.on('error', () => {});
  sock.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = buf.subarray(0, end + 4).toString('latin1');
    buf = buf.subarray(end + 4);
    const path = head.split(' ')[1] || '';
    if (path === '/raw/echo-head') {
      sock.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(head, 'latin1')}\r\n\r\n`);
      sock.write(Buffer.from(head, 'latin1'));
      return;
    }
    if (path === '/raw/reset') {
      sock.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b');
      setTimeout(() => sock.resetAndDestroy(), 20);
      return;
    }
    if (path === '/raw/truncated') {
      sock.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b');
      return;
    }
    if (path === '/raw/slow-body') {
      sock.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nstart');
      return;  // never finishes: the client's timeout must end it
    }
    const answer = RAW[path];
    if (answer === undefined) {
      sock.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    sock.end(answer);
  });
});

let ready = 0;
const ports = {};
function listening(name, s) {
  ports[name] = s.address().port;
  if (++ready === 3) process.stdout.write(JSON.stringify(ports) + '\n');
}
server.listen(0, '127.0.0.1', () => listening('http', server));
raw.listen(0, '127.0.0.1', () => listening('raw', raw));
// The same answers on ::1 (IPv6 literals and zones in URLs).
const server6 = http.createServer(server.listeners('request')[0]);
server6.listen(0, '::1', () => listening('http6', server6));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

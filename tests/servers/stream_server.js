'use strict';
// Node's HTTPS server speaking HTTP/1.1 and HTTP/2 on one port (node:http2
// createSecureServer, allowHTTP1), for the streaming and cancel tests
// (tests/integration/stream_test.cc).
//
//   node stream_server.js --cert C.pem --key K.pem
//
// Prints {"port","silent"} once listening (silent: a TCP port that accepts
// and never answers, so a TLS handshake to it waits); stops when stdin closes (and after 900 s
// regardless). Every answer carries x-conn, the serial number of the TCP
// connection it came on.
//   GET /bytes?n=N[&key=K]  N bytes (a fixed pseudo-random 1 MiB block,
//                           repeated), written as fast as the client takes
//                           them; x-sha256 of the whole for N <= 64 MiB.
//                           With key: /stats?key=K reports the writer.
//   GET /drip?n=N&ms=M[&pad=P]  text/event-stream: "data: i\n\n" every M ms,
//                           N times (with pad, "data: i " and P x's)
//   GET /coded/E?n=N        N bytes of text encoded with E (gzip, br, zstd);
//                           x-sha256 of the decoded text
//   GET /delay?ms=M[&key=K] headers after M ms (at most 60 s), body "late"
//   GET /stats?key=K        {"written","waitingDrain","finished","aborted"}
const fs = require('fs');
const http2 = require('http2');
const crypto = require('crypto');
const net = require('net');
const zlib = require('zlib');
const { execFileSync } = require('child_process');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

const BLOCK = (() => {
  const b = Buffer.allocUnsafe(1 << 20);
  let x = 0x12345678;
  for (let i = 0; i < b.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
})();

function shaOfBytes(n) {
  const h = crypto.createHash('sha256');
  for (let off = 0; off < n; off += BLOCK.length) h.update(BLOCK.subarray(0, Math.min(BLOCK.length, n - off)));
  return h.digest('hex');
}

function text(n) {
  const line = 'streamed text, line after line, the same words again and again\n';
  return Buffer.from(line.repeat(Math.ceil(n / line.length)).slice(0, n));
}

function encode(encoding, buf) {
  if (encoding === 'gzip') return zlib.gzipSync(buf);
  if (encoding === 'br') return zlib.brotliCompressSync(buf);
  if (encoding === 'zstd') return execFileSync('zstd', ['-q', '-c'], { input: buf, maxBuffer: 1 << 30 });
  return null;
}

const stats = new Map();
function statFor(key) {
  if (!key) return null;
  if (!stats.has(key)) stats.set(key, { written: 0, waitingDrain: false, finished: false, aborted: false });
  return stats.get(key);
}

let connections = 0;
const server = http2.createSecureServer({
  cert: fs.readFileSync(arg('--cert')),
  key: fs.readFileSync(arg('--key')),
  allowHTTP1: true,
});
server.on('secureConnection', (socket) => { socket.tlscConn = ++connections; });
server.on('session', (session) => { session.on('error', () => {}); });

function connOf(req) {
  const s = req.stream ? req.stream.session.socket : req.socket;
  return String(s && s.tlscConn !== undefined ? s.tlscConn : 0);
}

server.on('request', (req, res) => {
  const url = new URL(req.url, 'https://x');
  const q = (k, d) => (url.searchParams.has(k) ? url.searchParams.get(k) : d);
  const st = statFor(q('key', ''));
  res.on('error', () => {});
  res.on('close', () => { if (st && !st.finished) st.aborted = true; });
  res.setHeader('x-conn', connOf(req));
  const parts = url.pathname.split('/').filter(Boolean);
  switch (parts[0]) {
    case 'bytes': {
      const n = Number(q('n', '0'));
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('content-length', String(n));
      if (n <= (64 << 20)) res.setHeader('x-sha256', shaOfBytes(n));
      res.writeHead(200);
      let off = 0;
      const pump = () => {
        if (st) st.waitingDrain = false;
        while (off < n) {
          const take = Math.min(65536, n - off, BLOCK.length - (off % BLOCK.length));
          const start = off % BLOCK.length;
          const ok = res.write(BLOCK.subarray(start, start + take));
          off += take;
          if (st) st.written = off;
          if (!ok) {
            if (st) st.waitingDrain = true;
            return res.once('drain', pump);
          }
        }
        if (st) st.finished = true;
        res.end();
      };
      return pump();
    }
    case 'drip': {
      const n = Math.min(1000, Number(q('n', '5')));
      const ms = Math.min(10000, Number(q('ms', '100')));
      const pad = Math.min(65536, Number(q('pad', '0')));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let i = 0;
      const tick = () => {
        if (i >= n) { if (st) st.finished = true; return res.end(); }
        res.write(`data: ${i++}${pad ? ' ' + 'x'.repeat(pad) : ''}\n\n`);
        t = setTimeout(tick, ms);
      };
      let t = setTimeout(tick, 0);
      res.on('close', () => clearTimeout(t));
      return;
    }
    case 'coded': {
      const plain = text(Number(q('n', '0')));
      const body = encode(parts[1], plain);
      if (!body) { res.writeHead(400); return res.end('unknown encoding'); }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': parts[1],
        'x-sha256': crypto.createHash('sha256').update(plain).digest('hex') });
      return res.end(body);
    }
    case 'delay': {
      const ms = Math.min(60000, Number(q('ms', '0')));
      const t = setTimeout(() => { if (st) st.finished = true; res.writeHead(200); res.end('late'); }, ms);
      res.on('close', () => clearTimeout(t));
      return;
    }
    case 'stats':
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(statFor(q('key', 'none'))));
    default:
      res.writeHead(404);
      return res.end('no ' + url.pathname);
  }
});

const held = [];
const silent = net.createServer((socket) => { held.push(socket); socket.on('error', () => {}); });
server.listen(0, '127.0.0.1', () => {
  silent.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ port: server.address().port, silent: silent.address().port }) + '\n');
  });
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
setTimeout(() => process.exit(0), 900000).unref();

'use strict';
// Loopback HTTP test servers shared by the binding tests and bench/.
//
// Module:
//   const { startServer } = require('./servers');
//   const srv = await startServer();        // { port, url, close(), stats }
//   srv.url('/echo') -> 'http://127.0.0.1:<port>/echo'
//
// CLI:
//   node servers.js [--port N]
//   prints the port alone on the first line of stdout, then serves until
//   SIGTERM/SIGINT, or until stdin closes when started with --exit-on-stdin-close
//   (so a parent that dies never leaves it behind), or after --max-seconds S.
//
// Routes (every answer carries Content-Length unless noted, and keep-alive):
//   /echo[/...]          JSON {method, path, url, httpVersion, headers: [[name, value], ...]
//                        in the raw order received, body (utf8), bodyBase64, bodyLength}.
//                        Any path that matches no route below is echoed too.
//   /delay/<ms>[/<tag>]  answers after <ms> (capped at 60000) with a small JSON
//                        {path, delay} (not a full echo: cheap to build and parse).
//   /fixed               answers at once with the same small JSON {path, delay: 0}.
//   /set-cookie?a=1&b=2  one Set-Cookie header per query parameter ("a=1; Path=/"),
//                        body is the echo.
//   /set-cookie-attrs?name=n&value=v&attrs=<url-encoded attributes>
//                        one Set-Cookie header "n=v; <attrs>".
//   /cookies             JSON {cookie: <the Cookie header or null>, cookies: {name: value}}.
//   /redirect/<n>        302 to /redirect/<n-1>; /redirect/0 answers with the echo.
//   /redirect-to?url=U&status=S   S (default 302) with Location U.
//   /status/<code>       that status, body "status <code>".
//   /gzip /deflate /br   the echo, compressed with that Content-Encoding.
//   /bytes/<n>           n deterministic bytes (i*31+7 & 255), application/octet-stream.
//   /latin1              text/html; charset=iso-8859-1 body "caf\xe9".
//   /chunked             the echo sent with Transfer-Encoding: chunked, in 3 pieces.
//   /headers-multi       two Set-Cookie and two X-Multi response headers.
//   /_stats[?reset=1]    JSON {requests, inflight, peakInflight, connections (accepted),
//                        openSockets} since start or the last reset (bench/ reads it).
// Servers bind 127.0.0.1 only.

const http = require('http');
const zlib = require('zlib');
const { URL } = require('url');

const MAX_DELAY_MS = 60000;
const MAX_BODY = 64 * 1024 * 1024;

function send(res, status, body, headers = {}) {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(String(body));
  res.writeHead(status, Object.assign({ 'Content-Length': buf.length }, headers));
  res.end(buf);
}

function sendJson(res, status, obj, headers = {}) {
  send(res, status, JSON.stringify(obj), Object.assign({ 'Content-Type': 'application/json' }, headers));
}

function rawHeaderPairs(req) {
  const out = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) out.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
  return out;
}

function echoObject(req, body) {
  return {
    method: req.method,
    path: req.url,
    url: req.url,
    httpVersion: req.httpVersion,
    headers: rawHeaderPairs(req),
    body: body.toString('utf8'),
    bodyBase64: body.toString('base64'),
    bodyLength: body.length,
  };
}

function parseCookieHeader(h) {
  const out = {};
  if (!h) return out;
  for (const part of String(h).split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

function handler(stats) {
  return (req, res) => {
    stats.requests++;
    stats.inflight++;
    if (stats.inflight > stats.peakInflight) stats.peakInflight = stats.inflight;
    res.on('close', () => { stats.inflight--; });

    const chunks = [];
    let size = 0;
    let aborted = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) { aborted = true; req.destroy(); return; }
      chunks.push(c);
    });
    req.on('error', () => {});
    req.on('end', () => {
      if (aborted) return;
      const body = Buffer.concat(chunks);
      let u;
      try { u = new URL(req.url, 'http://127.0.0.1'); } catch { return send(res, 400, 'bad url'); }
      const p = u.pathname;
      const parts = p.split('/').filter(Boolean);

      if (parts[0] === 'delay') {
        const ms = Math.max(0, Math.min(MAX_DELAY_MS, parseInt(parts[1], 10) || 0));
        const t = setTimeout(() => sendJson(res, 200, { path: req.url, delay: ms }), ms);
        res.on('close', () => clearTimeout(t));
        return;
      }
      if (p === '/fixed') return sendJson(res, 200, { path: req.url, delay: 0 });
      if (p === '/_stats') {
        // this request itself is not counted
        const out = { requests: stats.requests - 1, inflight: stats.inflight - 1, peakInflight: stats.peakInflight,
          connections: stats.connections, openSockets: stats.openSockets };
        if (u.searchParams.get('reset')) { stats.requests = 0; stats.peakInflight = 0; stats.connections = 0; }
        return sendJson(res, 200, out, { Connection: 'close' });
      }
      if (p === '/set-cookie') {
        const cookies = [];
        for (const [k, v] of u.searchParams) cookies.push(`${k}=${v}; Path=/`);
        return sendJson(res, 200, echoObject(req, body), cookies.length ? { 'Set-Cookie': cookies } : {});
      }
      if (p === '/set-cookie-attrs') {
        const n = u.searchParams.get('name') || 'c';
        const v = u.searchParams.get('value') || '';
        const a = u.searchParams.get('attrs');
        return sendJson(res, 200, echoObject(req, body), { 'Set-Cookie': `${n}=${v}${a ? '; ' + a : ''}` });
      }
      if (p === '/cookies') {
        const h = req.headers.cookie;
        return sendJson(res, 200, { cookie: h === undefined ? null : h, cookies: parseCookieHeader(h) });
      }
      if (parts[0] === 'redirect' && parts.length === 2) {
        const n = Math.max(0, Math.min(50, parseInt(parts[1], 10) || 0));
        if (n === 0) return sendJson(res, 200, echoObject(req, body));
        return send(res, 302, '', { Location: `/redirect/${n - 1}` });
      }
      if (p === '/redirect-to') {
        const status = parseInt(u.searchParams.get('status') || '302', 10);
        return send(res, status, '', { Location: u.searchParams.get('url') || '/echo' });
      }
      if (parts[0] === 'status') {
        const code = Math.max(100, Math.min(599, parseInt(parts[1], 10) || 200));
        if (code < 200 || code === 204 || code === 304) { res.writeHead(code); return res.end(); }
        return send(res, code, `status ${code}`, { 'Content-Type': 'text/plain' });
      }
      if (p === '/gzip' || p === '/deflate' || p === '/br') {
        const raw = Buffer.from(JSON.stringify(echoObject(req, body)));
        const enc = p.slice(1);
        const z = enc === 'gzip' ? zlib.gzipSync(raw) : enc === 'deflate' ? zlib.deflateSync(raw) : zlib.brotliCompressSync(raw);
        return send(res, 200, z, { 'Content-Type': 'application/json', 'Content-Encoding': enc });
      }
      if (parts[0] === 'bytes') {
        const n = Math.max(0, Math.min(16 * 1024 * 1024, parseInt(parts[1], 10) || 0));
        const b = Buffer.alloc(n);
        for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 255;
        return send(res, 200, b, { 'Content-Type': 'application/octet-stream' });
      }
      if (p === '/latin1') {
        return send(res, 200, Buffer.from([0x63, 0x61, 0x66, 0xe9]), { 'Content-Type': 'text/html; charset=iso-8859-1' });
      }
      if (p === '/chunked') {
        const raw = Buffer.from(JSON.stringify(echoObject(req, body)));
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const a = Math.floor(raw.length / 3);
        res.write(raw.subarray(0, a));
        res.write(raw.subarray(a, 2 * a));
        return res.end(raw.subarray(2 * a));
      }
      if (p === '/headers-multi') {
        return sendJson(res, 200, { ok: true }, { 'Set-Cookie': ['m1=a; Path=/', 'm2=b; Path=/'], 'X-Multi': ['one', 'two'] });
      }
      return sendJson(res, 200, echoObject(req, body));
    });
  };
}

/**
 * Starts one server on 127.0.0.1.
 * @param {{port?: number}} [opts]
 * @returns {Promise<{port:number, url:(p?:string)=>string, close:()=>Promise<void>, stats:object, server:http.Server}>}
 */
function startServer(opts = {}) {
  const stats = { requests: 0, inflight: 0, peakInflight: 0, connections: 0, openSockets: 0 };
  const server = http.createServer({ keepAlive: true, requestTimeout: 0, headersTimeout: 60000 }, handler(stats));
  server.keepAliveTimeout = 65000;
  server.maxRequestsPerSocket = 0;
  const sockets = new Set();
  server.on('connection', (s) => {
    stats.connections++;
    stats.openSockets++;
    s.setNoDelay(true);
    sockets.add(s);
    s.on('close', () => { sockets.delete(s); stats.openSockets--; });
  });
  server.on('clientError', (err, socket) => { try { socket.destroy(); } catch { /* ignore */ } });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: opts.port || 0, backlog: 4096 }, () => {
      const port = server.address().port;
      resolve({
        port,
        server,
        stats,
        url: (p = '/') => `http://127.0.0.1:${port}${p}`,
        close: () => new Promise((r) => {
          for (const s of sockets) s.destroy();
          server.close(() => r());
        }),
      });
    });
  });
}

/**
 * Starts servers.js in a child process (so it does not share the caller's
 * event loop). Resolves to {port, url(), child, close()}.
 */
function spawnServer(opts = {}) {
  // Windows Node under wine cannot start a Linux program (libuv aborts on
  // the job object), so the runner starts `servers.js` itself and passes
  // its port: TLSC_SERVER_PORT.
  if (process.env.TLSC_SERVER_PORT) {
    const port = parseInt(process.env.TLSC_SERVER_PORT, 10);
    return Promise.resolve({ port, child: null, url: (p = '/') => `http://127.0.0.1:${port}${p}`, close: async () => {} });
  }
  const { spawn } = require('child_process');
  const args = [__filename, '--exit-on-stdin-close'];
  if (opts.maxSeconds) args.push('--max-seconds', String(opts.maxSeconds));
  const [node, ...pre] = require('./common').peerNode();
  const child = spawn(node, [...pre, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => { child.kill(); reject(new Error('server did not start in 10 s')); }, 10000);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited early (${code})`)); });
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/^(\d+)\n/);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const port = parseInt(m[1], 10);
      resolve({
        port,
        child,
        url: (p = '/') => `http://127.0.0.1:${port}${p}`,
        close: () => new Promise((r) => {
          if (child.exitCode !== null) return r();
          child.once('exit', () => r());
          child.kill('SIGTERM');
        }),
      });
    });
  });
}

module.exports = { startServer, spawnServer };

if (require.main === module) {
  const argv = process.argv.slice(2);
  const get = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
  const port = parseInt(get('--port') || '0', 10);
  const maxSeconds = parseFloat(get('--max-seconds') || '0');
  startServer({ port }).then((srv) => {
    process.stdout.write(`${srv.port}\n`);
    const stop = () => srv.close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    if (argv.includes('--exit-on-stdin-close')) {
      process.stdin.on('end', stop);
      process.stdin.on('close', stop);
      process.stdin.resume();
    }
    if (maxSeconds > 0) setTimeout(stop, maxSeconds * 1000).unref();
  }, (err) => { console.error(err); process.exit(1); });
}

'use strict';
// What the bench's TLS servers (https_server.js: HTTP/1.1, h2_server.js:
// HTTP/2) share: the certificate from tests/servers/make_certs.sh, the
// routes, the TLS counters, the plain-HTTP /_stats port, listening, the
// command line, and starting a server file in a child process.
const fs = require('fs');
const path = require('path');
const http = require('http');

const MAX_DELAY_MS = 60000;

function sendJson(res, status, obj, headers = {}) {
  const buf = Buffer.from(JSON.stringify(obj));
  res.writeHead(status, Object.assign({ 'Content-Type': 'application/json', 'Content-Length': buf.length }, headers));
  res.end(buf);
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

// The text of /body/<bytes>: an HTML page's worth of ASCII markup, with the
// quotes, '<', '>' and '&' a JSON writer must escape (Go escapes all four),
// repeated to length. Built once, at the largest size asked for.
const BODY_LINE = '<div class="item" data-id="42"><a href="/p?a=1&amp;b=2">Lorem ipsum dolor sit amet</a></div>\n';
let bodyCache = Buffer.alloc(0);
function bodyText(bytes) {
  if (bodyCache.length < bytes) bodyCache = Buffer.from(BODY_LINE.repeat(Math.ceil(bytes / BODY_LINE.length)), 'latin1');
  return bodyCache.subarray(0, bytes);
}

/** Answers /body/<bytes> with bodyText(bytes) as text/html. */
function sendBody(res, bytes) {
  const buf = bodyText(bytes);
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': buf.length });
  res.end(buf);
}

/** The bench routes: {delayMs} for /delay/<ms> (capped), {delayMs: 0} for
 * /fixed, {bodyBytes} for /body/<bytes> (capped), null otherwise. /delay and
 * /fixed answer {path, delay} with status 200, /body bodyText(bytes). */
function route(url) {
  const p = url.split('?')[0];
  const parts = p.split('/').filter(Boolean);
  if (parts[0] === 'delay') return { delayMs: Math.max(0, Math.min(MAX_DELAY_MS, parseInt(parts[1], 10) || 0)) };
  if (parts[0] === 'body') return { delayMs: 0, bodyBytes: Math.max(0, Math.min(MAX_BODY_BYTES, parseInt(parts[1], 10) || 0)) };
  if (p === '/fixed') return { delayMs: 0 };
  return null;
}

/** Key and chain of make_certs.sh's leaf `leaf` in certDir. */
function tlsMaterial({ certDir, leaf = 'good' }) {
  return {
    key: fs.readFileSync(path.join(certDir, `${leaf}.key`)),
    cert: fs.readFileSync(path.join(certDir, `${leaf}.chain.pem`)),
  };
}

/** The TLS counters every server keeps (fields of /_stats). */
function tlsCounters() {
  return { connections: 0, resumed: 0, tcpConnections: 0, openSockets: 0, tlsErrors: 0, firstTlsError: null, protocols: {} };
}

/** Counts a tls.Server's TCP connections, completed handshakes (resumed or
 * not, by TLS version) and failed handshakes into stats; every socket goes
 * into `sockets` until it closes (so close() can end them). */
function instrumentTls(srv, stats, sockets) {
  srv.on('connection', (s) => {
    stats.tcpConnections++;
    stats.openSockets++;
    s.setNoDelay(true);
    sockets.add(s);
    s.on('close', () => { sockets.delete(s); stats.openSockets--; });
  });
  srv.on('secureConnection', (t) => {
    stats.connections++;
    if (t.isSessionReused()) stats.resumed++;
    const v = t.getProtocol() || '?';
    stats.protocols[v] = (stats.protocols[v] || 0) + 1;
  });
  srv.on('tlsClientError', (err, s) => {
    stats.tlsErrors++;
    if (!stats.firstTlsError) stats.firstTlsError = String(err && err.message || err);
    try { s.destroy(); } catch { /* ignore */ }
  });
}

/** The plain-HTTP control server: /_stats[?reset=1] answers snapshot() and,
 * with reset, calls reset() after taking it. Connection: close, so that
 * reading the stats leaves no socket open. */
function controlServer(snapshot, reset) {
  return http.createServer((req, res) => {
    const u = new URL(req.url, 'http://127.0.0.1');
    if (u.pathname !== '/_stats') return sendJson(res, 404, {}, { Connection: 'close' });
    const out = snapshot();
    if (u.searchParams.get('reset')) reset();
    return sendJson(res, 200, out, { Connection: 'close' });
  });
}

function listen(srv, port) {
  return new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen({ host: '127.0.0.1', port, backlog: 4096 }, () => resolve(srv.address().port));
  });
}

/**
 * Starts `file` (a server using runCli) in a child process with
 * --cert-dir certDir --leaf leaf; resolves to the ports it printed plus
 * {child, url(p), close()} and, for every `<name>Port` it printed,
 * `<name>Url(p)` (e.g. noResumePort -> noResumeUrl).
 */
function spawnTlsServer(file, { certDir, leaf = 'good', maxSeconds = 3600, args = [] }) {
  const { spawn } = require('child_process');
  const argv = [file, '--cert-dir', certDir, '--leaf', leaf, '--exit-on-stdin-close', '--max-seconds', String(maxSeconds), ...args];
  const child = spawn(process.execPath, argv, { stdio: ['pipe', 'pipe', 'inherit'] });
  const name = path.basename(file);
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${name} did not start in 10 s`)); }, 10000);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited early (${code})`)); });
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const ports = JSON.parse(buf.slice(0, nl));
      const out = Object.assign({}, ports, {
        child,
        url: (p = '/') => `https://127.0.0.1:${ports.port}${p}`,
        close: () => new Promise((r) => {
          if (child.exitCode !== null) return r();
          child.once('exit', () => r());
          child.kill('SIGTERM');
        }),
      });
      for (const [k, v] of Object.entries(ports)) {
        const m = k.match(/^(.+)Port$/);
        if (m && m[1] !== 'stats') out[`${m[1]}Url`] = (p = '/') => `https://127.0.0.1:${v}${p}`;
      }
      resolve(out);
    });
  });
}

/**
 * The command line of a server file:
 *   node FILE --cert-dir DIR [--leaf good] [--port P] [--max-seconds S]
 *     [--exit-on-stdin-close] [extra options read by start through get()]
 * start({certDir, leaf, port, get}) resolves to {ports: {...}, close()};
 * the ports are printed as one JSON line, then it serves until
 * SIGTERM/SIGINT, stdin closing (with --exit-on-stdin-close) or the bound.
 */
function runCli(start) {
  const argv = process.argv.slice(2);
  const get = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
  const certDir = get('--cert-dir');
  if (!certDir) { console.error(`usage: ${path.basename(process.argv[1])} --cert-dir DIR [--leaf good]`); process.exit(2); }
  const maxSeconds = parseFloat(get('--max-seconds') || '0');
  start({ certDir, leaf: get('--leaf') || 'good', port: parseInt(get('--port') || '0', 10), get }).then((srv) => {
    process.stdout.write(JSON.stringify(srv.ports) + '\n');
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

module.exports = { MAX_DELAY_MS, sendJson, sendBody, bodyText, route, tlsMaterial, tlsCounters, instrumentTls, controlServer, listen, spawnTlsServer, runCli };

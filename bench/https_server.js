'use strict';
// Loopback HTTPS (HTTP/1.1) server for the bench's HTTPS rows, in its own
// process. Node's https with a test certificate from tests/servers/make_certs.sh.
//
// CLI: node https_server.js --cert-dir DIR [--leaf good] [--max-seconds S]
//        [--exit-on-stdin-close]
//   prints one JSON line {"port": P, "noResumePort": F, "statsPort": Q} on
//   stdout, then serves
//   until SIGTERM/SIGINT, stdin closing (with --exit-on-stdin-close) or the
//   time bound.
//
// HTTPS routes (127.0.0.1:P, keep-alive, Content-Length, no ALPN: HTTP/1.1;
// the same on 127.0.0.1:F, which never resumes a TLS session):
//   /delay/<ms>  answers after <ms> (capped at 60000) with {path, delay}
//   /fixed       answers at once with the same small JSON
// Plain-HTTP control port (127.0.0.1:Q), so that reading the stats costs no
// handshake and is not counted:
//   /_stats[?reset=1]  {requests, inflight, peakInflight, connections (TLS
//                      handshakes completed), resumed (of which resumed a
//                      session), tcpConnections, openSockets, tlsErrors,
//                      firstTlsError, protocols {TLSv1.3: n}}
const fs = require('fs');
const path = require('path');
const http = require('http');
const https = require('https');
const { constants } = require('crypto');

const MAX_DELAY_MS = 60000;

function sendJson(res, status, obj, headers = {}) {
  const buf = Buffer.from(JSON.stringify(obj));
  res.writeHead(status, Object.assign({ 'Content-Type': 'application/json', 'Content-Length': buf.length }, headers));
  res.end(buf);
}

function fresh() {
  return { requests: 0, inflight: 0, peakInflight: 0, connections: 0, resumed: 0, tcpConnections: 0,
    openSockets: 0, tlsErrors: 0, firstTlsError: null, protocols: {} };
}

function start({ certDir, leaf = 'good', port = 0 }) {
  const stats = fresh();
  const tlsOpts = {
    key: fs.readFileSync(path.join(certDir, `${leaf}.key`)),
    cert: fs.readFileSync(path.join(certDir, `${leaf}.chain.pem`)),
    keepAlive: true,
    requestTimeout: 0,
    headersTimeout: 60000,
  };
  const handler = (req, res) => {
    stats.requests++;
    stats.inflight++;
    if (stats.inflight > stats.peakInflight) stats.peakInflight = stats.inflight;
    res.on('close', () => { stats.inflight--; });
    req.on('error', () => {});
    req.resume();
    req.on('end', () => {
      const p = req.url.split('?')[0];
      const parts = p.split('/').filter(Boolean);
      if (parts[0] === 'delay') {
        const ms = Math.max(0, Math.min(MAX_DELAY_MS, parseInt(parts[1], 10) || 0));
        const t = setTimeout(() => sendJson(res, 200, { path: req.url, delay: ms }), ms);
        res.on('close', () => clearTimeout(t));
        return;
      }
      if (p === '/fixed') return sendJson(res, 200, { path: req.url, delay: 0 });
      return sendJson(res, 404, { path: req.url, error: 'no such route' });
    });
  };
  const sockets = new Set();
  const server = https.createServer(tlsOpts, handler);
  // the second port never resumes a TLS session: no tickets (stateless or
  // stateful: Node keeps no server session cache without a resumeSession
  // listener), so every connection is a full handshake
  const noResume = https.createServer(Object.assign({}, tlsOpts, { secureOptions: constants.SSL_OP_NO_TICKET }), handler);
  function instrument(srv) {
    srv.keepAliveTimeout = 65000;
    srv.maxRequestsPerSocket = 0;
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
    srv.on('clientError', (err, s) => { try { s.destroy(); } catch { /* ignore */ } });
  }

  for (const srv of [server, noResume]) instrument(srv);

  const control = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://127.0.0.1');
    if (u.pathname !== '/_stats') return sendJson(res, 404, {}, { Connection: 'close' });
    const out = Object.assign({}, stats, { protocols: Object.assign({}, stats.protocols) });
    if (u.searchParams.get('reset')) {
      const keep = { inflight: stats.inflight, openSockets: stats.openSockets };
      Object.assign(stats, fresh(), keep);
    }
    return sendJson(res, 200, out, { Connection: 'close' });
  });

  const listen = (srv, p) => new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen({ host: '127.0.0.1', port: p, backlog: 4096 }, () => resolve(srv.address().port));
  });
  return Promise.all([listen(server, port), listen(noResume, 0), listen(control, 0)]).then(([p, f, q]) => ({
    port: p,
    noResumePort: f,
    statsPort: q,
    close: () => new Promise((r) => {
      for (const s of sockets) s.destroy();
      control.close();
      noResume.close();
      server.close(() => r());
    }),
  }));
}

/** Starts this file in a child process; resolves to {port, statsPort, child, url(p), close()}. */
function spawnHttpsServer({ certDir, leaf = 'good', maxSeconds = 3600 }) {
  const { spawn } = require('child_process');
  const args = [__filename, '--cert-dir', certDir, '--leaf', leaf, '--exit-on-stdin-close', '--max-seconds', String(maxSeconds)];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => { child.kill(); reject(new Error('https server did not start in 10 s')); }, 10000);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`https server exited early (${code})`)); });
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const { port, noResumePort, statsPort } = JSON.parse(buf.slice(0, nl));
      resolve({
        port,
        noResumePort,
        statsPort,
        child,
        url: (p = '/') => `https://127.0.0.1:${port}${p}`,
        noResumeUrl: (p = '/') => `https://127.0.0.1:${noResumePort}${p}`,
        close: () => new Promise((r) => {
          if (child.exitCode !== null) return r();
          child.once('exit', () => r());
          child.kill('SIGTERM');
        }),
      });
    });
  });
}

module.exports = { spawnHttpsServer };

if (require.main === module) {
  const argv = process.argv.slice(2);
  const get = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
  const certDir = get('--cert-dir');
  if (!certDir) { console.error('usage: https_server.js --cert-dir DIR [--leaf good]'); process.exit(2); }
  const maxSeconds = parseFloat(get('--max-seconds') || '0');
  start({ certDir, leaf: get('--leaf') || 'good', port: parseInt(get('--port') || '0', 10) }).then((srv) => {
    process.stdout.write(JSON.stringify({ port: srv.port, noResumePort: srv.noResumePort, statsPort: srv.statsPort }) + '\n');
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

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
// The certificate, routes, TLS counters, stats port and command line are
// shared with h2_server.js (server_common.js).
const https = require('https');
const { constants } = require('crypto');
const common = require('./server_common');

function fresh() {
  return Object.assign({ requests: 0, inflight: 0, peakInflight: 0 }, common.tlsCounters());
}

function start({ certDir, leaf = 'good', port = 0 }) {
  const stats = fresh();
  const tlsOpts = Object.assign(common.tlsMaterial({ certDir, leaf }), {
    keepAlive: true,
    requestTimeout: 0,
    headersTimeout: 60000,
  });
  const handler = (req, res) => {
    stats.requests++;
    stats.inflight++;
    if (stats.inflight > stats.peakInflight) stats.peakInflight = stats.inflight;
    res.on('close', () => { stats.inflight--; });
    req.on('error', () => {});
    req.resume();
    req.on('end', () => {
      const r = common.route(req.url);
      if (!r) return common.sendJson(res, 404, { path: req.url, error: 'no such route' });
      if (r.bodyBytes !== undefined) return common.sendBody(res, r.bodyBytes);
      if (!r.delayMs) return common.sendJson(res, 200, { path: req.url, delay: 0 });
      const t = setTimeout(() => common.sendJson(res, 200, { path: req.url, delay: r.delayMs }), r.delayMs);
      res.on('close', () => clearTimeout(t));
      return undefined;
    });
  };
  const sockets = new Set();
  const server = https.createServer(tlsOpts, handler);
  // the second port never resumes a TLS session: no tickets (stateless or
  // stateful: Node keeps no server session cache without a resumeSession
  // listener), so every connection is a full handshake
  const noResume = https.createServer(Object.assign({}, tlsOpts, { secureOptions: constants.SSL_OP_NO_TICKET }), handler);
  for (const srv of [server, noResume]) {
    srv.keepAliveTimeout = 65000;
    srv.maxRequestsPerSocket = 0;
    common.instrumentTls(srv, stats, sockets);
    srv.on('clientError', (err, s) => { try { s.destroy(); } catch { /* ignore */ } });
  }

  const control = common.controlServer(
    () => Object.assign({}, stats, { protocols: Object.assign({}, stats.protocols) }),
    () => { Object.assign(stats, fresh(), { inflight: stats.inflight, openSockets: stats.openSockets }); },
  );

  return Promise.all([common.listen(server, port), common.listen(noResume, 0), common.listen(control, 0)]).then(([p, f, q]) => ({
    ports: { port: p, noResumePort: f, statsPort: q },
    close: () => new Promise((r) => {
      for (const s of sockets) s.destroy();
      control.close();
      noResume.close();
      server.close(() => r());
    }),
  }));
}

/** Starts this file in a child process; resolves to {port, noResumePort,
 * statsPort, child, url(p), noResumeUrl(p), close()}. */
function spawnHttpsServer({ certDir, leaf = 'good', maxSeconds = 3600 }) {
  return common.spawnTlsServer(__filename, { certDir, leaf, maxSeconds });
}

module.exports = { spawnHttpsServer };

if (require.main === module) common.runCli(start);

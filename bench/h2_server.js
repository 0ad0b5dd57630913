'use strict';
// Loopback HTTPS server over HTTP/2 for the bench's `h2` part, in its own
// process: node:http2 createSecureServer, ALPN "h2" only (allowHTTP1 false:
// a client that does not offer h2 is turned away, counted as
// unknownProtocol), with the same test certificate as https_server.js.
//
// CLI: node h2_server.js --cert-dir DIR [--leaf good] [--max-seconds S]
//        [--max-streams N] [--exit-on-stdin-close]
//   prints one JSON line {"port": P, "statsPort": Q} on stdout, then serves
//   until SIGTERM/SIGINT, stdin closing (with --exit-on-stdin-close) or the
//   time bound.
//
// HTTP/2 routes (127.0.0.1:P):
//   /delay/<ms>  answers after <ms> (capped at 60000) with {path, delay}
//   /fixed       answers at once with the same small JSON
// SETTINGS: Node's defaults (no MAX_CONCURRENT_STREAMS limit), or
// MAX_CONCURRENT_STREAMS N with --max-streams N. maxSessionMemory is raised
// to 512 MB so that thousands of open streams on one session are not
// refused by Node's memory guard (its default, 10 MB, is a server policy,
// not what this bench measures).
// Plain-HTTP control port (127.0.0.1:Q):
//   /_stats[?reset=1]  (reset: also closes every connection still open)
//                      {requests (streams), inflight, peakInflight (streams
//                      in flight, all sessions), sessions (HTTP/2 sessions
//                      started), openSessions, peakPerSession (most streams in
//                      flight on one session), connections (TLS handshakes
//                      completed), resumed, tcpConnections, openSockets,
//                      tlsErrors, firstTlsError, unknownProtocol (handshakes
//                      without ALPN h2), sessionErrors, streamResets (streams
//                      the client reset), protocols {TLSv1.3: n},
//                      alpn {h2: n}}
const http2 = require('http2');
const common = require('./server_common');

function fresh() {
  return Object.assign({
    requests: 0, inflight: 0, peakInflight: 0, sessions: 0, openSessions: 0, peakPerSession: 0,
    unknownProtocol: 0, sessionErrors: 0, streamResets: 0, alpn: {},
  }, common.tlsCounters());
}

function start({ certDir, leaf = 'good', port = 0, get = () => undefined }) {
  const stats = fresh();
  const maxStreams = parseInt(get('--max-streams') || '0', 10);
  const settings = maxStreams > 0 ? { maxConcurrentStreams: maxStreams } : {};
  const server = http2.createSecureServer(Object.assign(common.tlsMaterial({ certDir, leaf }), {
    allowHTTP1: false,
    ALPNProtocols: ['h2'],
    settings,
    maxSessionMemory: 512,
  }));
  const sockets = new Set();
  const sessions = new Set();
  common.instrumentTls(server, stats, sockets);
  server.on('secureConnection', (t) => {
    const a = t.alpnProtocol || 'none';
    stats.alpn[a] = (stats.alpn[a] || 0) + 1;
  });
  server.on('unknownProtocol', (s) => { stats.unknownProtocol++; try { s.destroy(); } catch { /* ignore */ } });
  server.on('sessionError', () => { stats.sessionErrors++; });
  server.on('session', (session) => {
    stats.sessions++;
    stats.openSessions++;
    sessions.add(session);
    session.benchInflight = 0;
    session.on('error', () => {});
    session.on('close', () => { sessions.delete(session); stats.openSessions--; });
  });
  // streams of the current stats period (a reset starts a new one)
  let period = 0;
  server.on('stream', (stream, headers) => {
    const session = stream.session;
    const mine = period;
    stats.requests++;
    stats.inflight++;
    if (stats.inflight > stats.peakInflight) stats.peakInflight = stats.inflight;
    session.benchInflight++;
    if (session.benchInflight > stats.peakPerSession) stats.peakPerSession = session.benchInflight;
    let timer = null;
    stream.on('error', () => {});
    stream.on('close', () => {
      if (mine === period) stats.inflight--;
      session.benchInflight--;
      if (timer) clearTimeout(timer);
      if (stream.rstCode && stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR) stats.streamResets++;
    });
    const url = headers[':path'] || '/';
    const answer = (status, obj) => {
      if (stream.destroyed || stream.closed) return;
      const buf = Buffer.from(JSON.stringify(obj));
      stream.respond({ ':status': status, 'content-type': 'application/json', 'content-length': buf.length });
      stream.end(buf);
    };
    stream.resume(); // a request body, if any, is read and dropped
    const r = common.route(url);
    if (!r) return answer(404, { path: url, error: 'no such route' });
    if (r.bodyBytes !== undefined) {
      const buf = common.bodyText(r.bodyBytes);
      stream.respond({ ':status': 200, 'content-type': 'text/html; charset=utf-8', 'content-length': buf.length });
      return stream.end(buf);
    }
    if (!r.delayMs) return answer(200, { path: url, delay: 0 });
    timer = setTimeout(() => { timer = null; answer(200, { path: url, delay: r.delayMs }); }, r.delayMs);
    return undefined;
  });

  const control = common.controlServer(
    () => Object.assign({}, stats, { protocols: Object.assign({}, stats.protocols), alpn: Object.assign({}, stats.alpn) }),
    () => {
      // The bench resets right before it starts a client, when the previous
      // one has exited: whatever is still open is left over (a client whose
      // process was killed mid-run may leave a socket the server stopped
      // reading, in CLOSE-WAIT, with its streams open), so it goes, and its
      // streams count no more.
      period++;
      for (const s of sessions) { try { s.destroy(); } catch { /* ignore */ } }
      for (const s of sockets) s.destroy();
      Object.assign(stats, fresh(), { openSockets: stats.openSockets, openSessions: stats.openSessions });
    },
  );

  return Promise.all([common.listen(server, port), common.listen(control, 0)]).then(([p, q]) => ({
    ports: { port: p, statsPort: q },
    close: () => new Promise((r) => {
      for (const s of sessions) { try { s.destroy(); } catch { /* ignore */ } }
      for (const s of sockets) s.destroy();
      control.close();
      server.close(() => r());
    }),
  }));
}

/** Starts this file in a child process; resolves to {port, statsPort, child,
 * url(p), close()}. maxStreams > 0: the server's MAX_CONCURRENT_STREAMS. */
function spawnH2Server({ certDir, leaf = 'good', maxSeconds = 3600, maxStreams = 0 }) {
  return common.spawnTlsServer(__filename, { certDir, leaf, maxSeconds, args: maxStreams > 0 ? ['--max-streams', String(maxStreams)] : [] });
}

module.exports = { spawnH2Server };

if (require.main === module) common.runCli(start);

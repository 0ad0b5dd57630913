'use strict';
// Node's HTTP/2 server (node:http2 createSecureServer) on loopback ports, for
// the HTTP/2 interop tests (tests/integration/h2_interop_test.cc).
//
//   node node_h2_server.js --cert C.pem --key K.pem
//
// Starts four servers and prints {"main","small","goaway","smallGoaway"} (ports) once all
// listen; stops when stdin closes (and after 600 s regardless).
//   main    default settings
//   small   SETTINGS_MAX_CONCURRENT_STREAMS 10
//   goaway  every session sends GOAWAY after its 100th stream: the streams
//           above it are refused (never processed); the client closes the
//           connection once the 100 are answered
//   smallGoaway  both: 10 streams at a time, GOAWAY after 25
//
// Paths (every answer carries x-session, the serial number of the HTTP/2
// session (= TCP connection) on its server, and x-stream, the stream id):
//   GET  /hello              "hello from node h2"
//   GET  /slow?ms=N          "slow N" after N ms (at most 5000)
//   GET  /download?bytes=N   N bytes of the test pattern (see pattern())
//   POST /echo               the request body, with its content-type
//   POST /upload             {"bytes":N,"sha256":hex} of the request body
//   GET  /reset              the stream is reset with INTERNAL_ERROR
//   GET  /refuse?key=K       the first request for each K is reset with
//                            REFUSED_STREAM, later ones answer "attempt N"
//                            (POST: "attempt N: <body>")
//   POST /early              "early answer" before the body is read, then
//                            RST_STREAM NO_ERROR
//   GET  /trailers           "body before trailers", then trailers
//   GET  /bomb?enc=E&mib=N   N MiB of zeros, compressed with E (br, gzip, deflate)
//   GET  /kill               no answer: the session is destroyed (TCP closed
//                            without GOAWAY) 50 ms later
//   GET  /ping               "pong" once the client answered a PING from the server
//   GET  /bigheader?kb=N     an x-big header of N KiB (HEADERS + CONTINUATION;
//                            Node sends no header block above 64 KB)
//   GET  /stats              {"sessions","open","maxActive","streams",
//                            "clientResets": {rst code: count of streams the client reset}}
//   GET  /session?id=S       {"open","closedAgoMs","idleMsBeforeClose"} of session S
const fs = require('fs');
const http2 = require('http2');
const crypto = require('crypto');
const { bomb } = require('./bombs');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

const cert = fs.readFileSync(arg('--cert'));
const key = fs.readFileSync(arg('--key'));
const { NGHTTP2_INTERNAL_ERROR, NGHTTP2_REFUSED_STREAM, NGHTTP2_NO_ERROR } = http2.constants;

// The test pattern: 64-byte lines "%015d " + 47 fixed characters + "\n",
// numbered from 0; the tests generate the same bytes.
const LINE_TAIL = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJK\n';
let patternCache = Buffer.alloc(0);
function pattern(bytes) {
  if (patternCache.length < bytes) {
    const lines = Math.ceil(bytes / 64);
    const b = Buffer.allocUnsafe(lines * 64);
    for (let i = 0; i < lines; i++) {
      b.write(String(i).padStart(15, '0') + ' ' + LINE_TAIL, i * 64, 'latin1');
    }
    patternCache = b;
  }
  return patternCache.subarray(0, bytes);
}

function makeServer(name, opts) {
  const st = { sessions: 0, open: 0, maxActive: 0, streams: 0, byId: new Map(), refused: new Map(), clientResets: {} };
  const server = http2.createSecureServer({
    cert, key,
    allowHTTP1: false,
    maxSessionMemory: 1000,  // MB; 2,000 streams in flight exceed the 10 MB default
    settings: opts.settings || {},
  });
  server.on('session', (session) => {
    const id = ++st.sessions;
    st.open++;
    const info = { open: true, active: 0, streams: 0, last: Date.now(), closedAt: 0, lastStream: 0 };
    st.byId.set(id, info);
    session.tlscId = id;
    session.tlscInfo = info;
    session.on('close', () => {
      st.open--;
      info.open = false;
      info.closedAt = Date.now();
    });
    session.on('error', () => {});
  });
  server.on('stream', (stream, headers) => {
    const session = stream.session;
    const info = session.tlscInfo;
    stream.on('error', () => {});
    st.streams++;
    info.streams++;
    info.last = Date.now();
    if (opts.goawayAfter) {
      if (info.goawayAt !== undefined && stream.id > info.goawayAt) {
        // A stream that arrived in the same read as the 100th, before the
        // GOAWAY left. Refused on the next turn, not here: here we are
        // inside nghttp2's receive call, and Node's rstStream flushes at
        // once, which sends the GOAWAY, which makes nghttp2 close (and
        // Node free) this very stream under the call: a use-after-free
        // that killed Node 20 with "corrupted size vs. prev_size" (the
        // sequence is analysed in oven-sh/bun#43475). Once the GOAWAY is
        // out, nghttp2 itself refuses the stream, so it may be gone by then.
        stream.tlscServerReset = true;
        setImmediate(() => {
          if (!stream.closed && !stream.destroyed) stream.close(NGHTTP2_REFUSED_STREAM);
        });
        return;
      }
      if (info.streams === opts.goawayAfter) {
        info.goawayAt = stream.id;
        session.goaway(NGHTTP2_NO_ERROR, stream.id);
        // Graceful: the streams up to goawayAt are still answered, and the
        // client closes the connection once they are. No session.close()
        // here: Node would then refuse a later HEADERS of the same read
        // itself, from inside the receive call (see above).
      }
    }
    info.active++;
    if (info.active > st.maxActive) st.maxActive = info.active;
    stream.on('close', () => {
      info.active--;
      info.last = Date.now();
      if (stream.rstCode && !stream.tlscServerReset) st.clientResets[stream.rstCode] = (st.clientResets[stream.rstCode] || 0) + 1;
    });

    const url = new URL(headers[':path'], 'https://x');
    const method = headers[':method'];
    const base = { 'x-session': String(session.tlscId), 'x-stream': String(stream.id) };
    const send = (status, body, type) => {
      if (stream.destroyed || stream.closed) return;
      stream.respond(Object.assign({ ':status': status, 'content-type': type || 'text/plain',
        'content-length': String(Buffer.byteLength(body)) }, base));
      stream.end(body);
    };
    if (url.pathname === '/early') {
      // Answers before reading the body, then resets the stream with
      // NO_ERROR: the client must keep the answer (RFC 9113 section 8.1).
      stream.respond(Object.assign({ ':status': 200, 'content-type': 'text/plain' }, base));
      stream.end('early answer');
      stream.on('finish', () => stream.close(http2.constants.NGHTTP2_NO_ERROR));
      return;
    }
    if (url.pathname === '/kill') {
      // The TCP connection dies under the request: no GOAWAY, no answer.
      setTimeout(() => session.destroy(), 50);
      return;
    }
    const chunks = [];
    let size = 0;
    const hash = crypto.createHash('sha256');
    stream.on('data', (c) => {
      size += c.length;
      if (url.pathname === '/upload') hash.update(c); else chunks.push(c);
    });
    stream.on('end', () => {
      switch (url.pathname) {
        case '/hello':
          return send(200, 'hello from node h2');
        case '/slow': {
          const ms = Math.min(5000, Number(url.searchParams.get('ms') || 0));
          return setTimeout(() => send(200, `slow ${ms}`), ms);
        }
        case '/download': {
          const n = Number(url.searchParams.get('bytes') || 0);
          stream.respond(Object.assign({ ':status': 200, 'content-type': 'application/octet-stream',
            'content-length': String(n) }, base));
          const buf = pattern(n);
          let off = 0;
          const pump = () => {
            while (off < buf.length) {
              const end = Math.min(buf.length, off + 65536);
              const ok = stream.write(buf.subarray(off, end));
              off = end;
              if (!ok) return stream.once('drain', pump);
            }
            stream.end();
          };
          return pump();
        }
        case '/bomb':
          return bomb(url.searchParams.get('enc'), Math.min(4096, Number(url.searchParams.get('mib') || 1))).then((b) => {
            if (stream.destroyed || stream.closed) return;
            if (!b) return send(404, 'no such encoding');
            stream.respond(Object.assign({ ':status': 200, 'content-type': 'application/octet-stream',
              'content-encoding': url.searchParams.get('enc'), 'content-length': String(b.length) }, base));
            stream.end(b);
          });
        case '/trailers':
          stream.respond(Object.assign({ ':status': 200, 'content-type': 'text/plain' }, base),
            { waitForTrailers: true });
          stream.on('wantTrailers', () => stream.sendTrailers({ 'x-checksum': 'abc123' }));
          return stream.end('body before trailers');
        case '/ping':
          return session.ping((err, ms) => send(200, err ? `ping failed: ${err.message}` : 'pong'));
        case '/bigheader': {
          const n = Math.min(1000, Number(url.searchParams.get('kb') || 1)) * 1024;
          stream.respond(Object.assign({ ':status': 200, 'content-type': 'text/plain',
            'x-big': 'h'.repeat(n) }, base));
          return stream.end(`header of ${n}`);
        }
        case '/echo':
          return send(200, Buffer.concat(chunks), headers['content-type']);
        case '/upload':
          return send(200, JSON.stringify({ bytes: size, sha256: hash.digest('hex') }), 'application/json');
        case '/reset':
          stream.tlscServerReset = true;
          return stream.close(NGHTTP2_INTERNAL_ERROR);
        case '/refuse': {
          const k = url.searchParams.get('key') || '';
          const n = (st.refused.get(k) || 0) + 1;
          st.refused.set(k, n);
          if (n === 1) {
            stream.tlscServerReset = true;
            return stream.close(NGHTTP2_REFUSED_STREAM);
          }
          return send(200, method === 'POST' ? `attempt ${n}: ${Buffer.concat(chunks)}` : `attempt ${n}`);
        }
        case '/stats':
          return send(200, JSON.stringify({ sessions: st.sessions, open: st.open, maxActive: st.maxActive,
            streams: st.streams, clientResets: st.clientResets }), 'application/json');
        case '/session': {
          const s = st.byId.get(Number(url.searchParams.get('id')));
          if (!s) return send(404, 'no such session');
          return send(200, JSON.stringify({
            open: s.open,
            closedAgoMs: s.open ? null : Date.now() - s.closedAt,
            idleMsBeforeClose: s.open ? null : s.closedAt - s.last,
          }), 'application/json');
        }
        default:
          return send(404, `no ${method} ${url.pathname}`);
      }
    });
  });
  return server;
}

const servers = {
  main: makeServer('main', {}),
  small: makeServer('small', { settings: { maxConcurrentStreams: 10 } }),
  goaway: makeServer('goaway', { goawayAfter: 100 }),
  smallGoaway: makeServer('smallGoaway', { settings: { maxConcurrentStreams: 10 }, goawayAfter: 25 }),
};
const ports = {};
let pending = Object.keys(servers).length;
for (const [name, s] of Object.entries(servers)) {
  s.listen(0, '127.0.0.1', () => {
    ports[name] = s.address().port;
    if (--pending === 0) process.stdout.write(JSON.stringify(ports) + '\n');
  });
}

const stop = () => process.exit(0);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();
setTimeout(stop, 600000).unref();

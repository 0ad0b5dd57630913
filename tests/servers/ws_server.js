'use strict';
// WebSocket servers for tests/integration/ws_test.cc: the `ws` package (the
// WebSocket server most Node services run) over HTTPS (ALPN offers h2 and
// http/1.1, so a client that offers h2 gets it and the test sees that) and
// over plain HTTP, plus hand-written upgrades that answer with broken
// handshakes or frames no server should send.
//
//   node ws_server.js --cert C.pem --key K.pem
//
// Prints {"tls","plain"} (ports) once listening; stops when stdin closes
// (and after 900 s regardless).
//   /echo                 every message back with its type
//   /headers              first a text message: {"rawHeaders","alpn","url","httpVersion"}; then echo
//   /close?code=C&reason=R  the server closes with C and R
//   /ping?data=D          the server pings with D; the pong's payload comes back as text "pong:<payload>"
//   /burst?n=N&size=S&key=K  N binary messages of S bytes (byte i of message m is (m + i) & 255),
//                         then text "done"; /stats?key=K (a text message on /stats) reports
//                         {"sent","flushed"}: messages handed to the socket and those it wrote
//   /bad/<kind>           a raw 101 (or not) and then raw bytes, see BAD below
//   /deflate/<path>       any of the above on a server with permessage-deflate (every message
//                         compressed); /deflate-nct/<path> the same with no context takeover
//                         both ways and 10-bit windows both ways
// /headers reports "extensions" too: the extension the connection negotiated.
const fs = require('fs');
const http = require('http');
const https = require('https');
const path = require('path');
const crypto = require('crypto');
const { WebSocketServer } = require(path.join(__dirname, '../bindings/node_modules/ws'));

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

const zlib = require('zlib');
const accept = (key) => crypto.createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
const frame = (b0, payload) => {
  const p = Buffer.from(payload);
  let len;
  if (p.length < 126) len = Buffer.from([p.length]);
  else if (p.length < 65536) len = Buffer.from([126, p.length >> 8, p.length & 255]);
  else { len = Buffer.alloc(9); len[0] = 127; len.writeBigUInt64BE(BigInt(p.length), 1); }
  return Buffer.concat([Buffer.from([b0]), len, p]);
};
// A message compressed as permessage-deflate sends it: the 00 00 ff ff tail removed.
const deflated = (data) => {
  const d = zlib.deflateRawSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return d.subarray(0, d.length - 4);
};
const PMD = 'Sec-WebSocket-Extensions: permessage-deflate\r\n';

// kind -> [extra 101 headers or a whole head, bytes after it]
const BAD = {
  rsv: () => [null, Buffer.from([0xc1, 0x00])],                         // RSV1 without an extension
  rsv2mask: () => [null, Buffer.from([0xe1, 0x80, 1, 2, 3, 4])],        // RSV1, RSV2 and a mask
  badop: () => [null, Buffer.from([0x83, 0x00])],                       // opcode 3
  bigctl: () => [null, Buffer.concat([Buffer.from([0x89, 0x7e, 0x00, 0x80]), Buffer.alloc(128)])],
  fragctl: () => [null, Buffer.from([0x09, 0x00])],                     // ping without FIN
  contfirst: () => [null, frame(0x80, 'x')],                            // continuation, nothing open
  badclose: () => [null, Buffer.from([0x88, 0x02, 0x03, 0xed])],        // code 1005 may not be sent
  fragments: () => [null, Buffer.concat([frame(0x01, 'hel'), frame(0x89, 'p'), frame(0x80, 'lo'), frame(0x82, 'bin')])],
  huge: () => [null, Buffer.from([0x82, 0x7f, 0, 0, 0x01, 0, 0, 0, 0, 0])], // claims 2^40 bytes
  eof: () => [null, null],                                              // the socket ends after the 101
  midframe: () => [null, Buffer.concat([Buffer.from([0x82, 100]), Buffer.alloc(10)])], // 10 of 100 bytes, then the end
  wrongaccept: () => ['HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\n\r\n', null],
  status200: () => ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nno', null],
  deflate: () => ['Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; client_no_context_takeover\r\n', null],
  silent: () => ['', null],                                             // never answers
  badutf8: () => [null, frame(0x81, Buffer.from([0x68, 0xc3, 0x28]))],  // a text frame that is not UTF-8
  deflatebad: () => [PMD, frame(0xc1, Buffer.from([0xff, 0xff, 0xff]))], // RSV1, not DEFLATE
  deflatebomb: () => [PMD, frame(0xc2, deflated(Buffer.alloc((64 << 20) + 1)))], // inflates past 64 MiB
  deflateok: () => [PMD, frame(0xc1, deflated(Buffer.from('squeezed')))],
};

const stats = new Map();
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
const wssDeflate = new WebSocketServer({ noServer: true, perMessageDeflate: { threshold: 0 } });
const wssDeflateNct = new WebSocketServer({ noServer: true, perMessageDeflate: { threshold: 0,
  serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 10, clientMaxWindowBits: 10 } });

function serve(ws, req, pathname) {
  const url = new URL(req.url, 'http://x');
  url.pathname = pathname;
  const q = (k, d) => url.searchParams.get(k) ?? d;
  ws.on('error', () => {});
  switch (url.pathname) {
    case '/echo':
      ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
      return;
    case '/headers':
      ws.send(JSON.stringify({ rawHeaders: req.rawHeaders, alpn: req.socket.alpnProtocol || '', url: req.url,
        httpVersion: req.httpVersion, extensions: ws.extensions }));
      ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
      return;
    case '/close':
      ws.close(Number(q('code', '1000')), q('reason', ''));
      return;
    case '/ping':
      ws.on('pong', (data) => ws.send('pong:' + data.toString()));
      ws.ping(q('data', ''));
      return;
    case '/burst': {
      const n = Math.min(10000, Number(q('n', '1'))), size = Math.min(8 << 20, Number(q('size', '1')));
      const st = { sent: 0, flushed: 0 };
      stats.set(q('key', 'none'), st);
      for (let m = 0; m < n; m++) {
        const b = Buffer.allocUnsafe(size);
        for (let i = 0; i < size; i++) b[i] = (m + i) & 255;
        st.sent++;
        ws.send(b, { binary: true }, () => { st.flushed++; });
      }
      ws.send('done');
      return;
    }
    case '/stats':
      ws.on('message', (data) => ws.send(JSON.stringify(stats.get(data.toString()) || {})));
      return;
    default:
      ws.close(1008, 'no ' + url.pathname);
  }
}

function onUpgrade(req, socket, head) {
  socket.on('error', () => {});
  const url = new URL(req.url, 'http://x');
  if (url.pathname.startsWith('/bad/')) {
    const make = BAD[url.pathname.slice(5)];
    if (!make) return socket.destroy();
    const [head101, bytes] = make();
    if (head101 === '') return;  // silent: hold the socket
    const key = req.headers['sec-websocket-key'] || '';
    const text = head101 && head101.startsWith('HTTP/')
      ? head101
      : 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ' +
        accept(key) + '\r\n' + (head101 || '') + '\r\n';
    socket.write(text);
    if (bytes) socket.write(bytes);
    if (!bytes || url.pathname === '/bad/midframe') socket.end();
    return;
  }
  for (const [prefix, server] of [['/deflate-nct/', wssDeflateNct], ['/deflate/', wssDeflate]]) {
    if (url.pathname.startsWith(prefix)) {
      return server.handleUpgrade(req, socket, head, (ws) => serve(ws, req, url.pathname.slice(prefix.length - 1)));
    }
  }
  wss.handleUpgrade(req, socket, head, (ws) => serve(ws, req, url.pathname));
}

const tlsServer = https.createServer({ cert: fs.readFileSync(arg('--cert')), key: fs.readFileSync(arg('--key')),
  ALPNProtocols: ['h2', 'http/1.1'] });
const plainServer = http.createServer();
for (const s of [tlsServer, plainServer]) {
  s.on('upgrade', onUpgrade);
  s.on('request', (req, res) => { res.writeHead(426); res.end('upgrade required'); });
}
tlsServer.listen(0, '127.0.0.1', () => {
  plainServer.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ tls: tlsServer.address().port, plain: plainServer.address().port }) + '\n');
  });
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
setTimeout(() => process.exit(0), 900000).unref();

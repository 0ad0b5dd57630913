'use strict';
// Node's https server on a loopback port, for the TLS peer tests; runs under
// the system Node (20) and under tests/servers/node24 (OpenSSL 3.5).
//
//   node node_https_server.js --cert C.pem --key K.pem
//
// Prints {"port":N,"relay":M,"node":"v..","openssl":".."} once both listen;
// stops when stdin closes (and after a bound of 600 s regardless).
//
// GET  any path: "hello from node <version>"
// POST/PUT any path: the request body, echoed
// Every answer carries X-Node (version), X-TLS-Protocol, X-TLS-Cipher,
// X-Method, X-Conn (a serial number per TLS connection) and, when the
// connection came through the relay, X-Key-Share-Group (e.g. "0x001d") and
// X-HRR-Group (the group of a HelloRetryRequest, if there was one).
//
// The relay: Node does not say which key exchange group a server connection
// negotiated, so `relay` is a plain TCP port that forwards to the https
// port and reads the server's first records: the ServerHello's key_share
// extension names the group. The server finds the record by the relay's
// outgoing local port, which is the remote port the https server sees.
const fs = require('fs');
const https = require('https');
const net = require('net');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

const cert = fs.readFileSync(arg('--cert'));
const key = fs.readFileSync(arg('--key'));
const hex4 = (n) => '0x' + n.toString(16).padStart(4, '0');

// relay outgoing local port -> { group, hrrGroup, version, error }
const seen = new Map();

// Parses the server-to-client byte stream up to the (final) ServerHello.
// Returns null while more bytes are needed, else the result.
function parseServerFlight(buf) {
  const out = { group: null, hrrGroup: null, version: null };
  let hs = Buffer.alloc(0); // handshake message bytes, records joined
  let off = 0;
  const HRR_RANDOM = 'cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c';
  for (;;) {
    if (buf.length < off + 5) return null;
    const type = buf[off];
    const len = buf.readUInt16BE(off + 3);
    if (buf.length < off + 5 + len) return null;
    const body = buf.subarray(off + 5, off + 5 + len);
    off += 5 + len;
    if (type === 20) continue; // ChangeCipherSpec (middlebox compatibility)
    if (type !== 22) return Object.assign(out, { error: `record type ${type} before the ServerHello` });
    hs = Buffer.concat([hs, body]);
    while (hs.length >= 4) {
      const mlen = hs.readUIntBE(1, 3);
      if (hs.length < 4 + mlen) break;
      const mtype = hs[0];
      const m = hs.subarray(4, 4 + mlen);
      hs = hs.subarray(4 + mlen);
      if (mtype !== 2) return Object.assign(out, { error: `handshake type ${mtype} before the ServerHello` });
      let p = 2; // legacy_version
      const random = m.subarray(p, p + 32).toString('hex');
      p += 32;
      p += 1 + m[p]; // session id
      p += 2 + 1; // cipher suite, compression
      let group = null;
      let version = m.readUInt16BE(0);
      if (p + 2 <= m.length) {
        const end = p + 2 + m.readUInt16BE(p);
        p += 2;
        while (p + 4 <= end) {
          const et = m.readUInt16BE(p);
          const el = m.readUInt16BE(p + 2);
          const ed = m.subarray(p + 4, p + 4 + el);
          p += 4 + el;
          if (et === 0x0033 && ed.length >= 2) group = ed.readUInt16BE(0);
          if (et === 0x002b && ed.length >= 2) version = ed.readUInt16BE(0);
        }
      }
      out.version = hex4(version);
      if (random === HRR_RANDOM) {
        out.hrrGroup = group === null ? null : hex4(group);
        continue; // the real ServerHello follows the second ClientHello
      }
      out.group = group === null ? null : hex4(group); // null: TLS 1.2 (group is in ServerKeyExchange)
      return out;
    }
  }
}

let connSerial = 0;
const server = https.createServer({ cert, key, keepAlive: true }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const sock = req.socket;
    if (sock.tlscSerial === undefined) sock.tlscSerial = ++connSerial;
    const info = seen.get(sock.remotePort);
    const headers = {
      'X-Node': process.version,
      'X-TLS-Protocol': sock.getProtocol ? String(sock.getProtocol()) : '',
      'X-TLS-Cipher': (sock.getCipher && sock.getCipher()) ? sock.getCipher().standardName : '',
      'X-Method': req.method,
      'X-Conn': String(sock.tlscSerial),
      'Content-Type': 'text/plain',
    };
    if (info) {
      headers['X-Key-Share-Group'] = info.group || (info.error ? 'error: ' + info.error : 'none');
      if (info.hrrGroup) headers['X-HRR-Group'] = info.hrrGroup;
      headers['X-Server-Version'] = info.version || '';
    }
    const body = req.method === 'GET' || req.method === 'HEAD'
      ? Buffer.from(`hello from node ${process.version}\n`)
      : Buffer.concat(chunks);
    headers['Content-Length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 30000;

const relay = net.createServer((client) => {
  const upstream = net.connect({ host: '127.0.0.1', port: server.address().port });
  let localPort = null;
  let acc = Buffer.alloc(0);
  let done = false;
  upstream.on('connect', () => { localPort = upstream.localPort; });
  upstream.on('data', (d) => {
    if (!done) {
      acc = Buffer.concat([acc, d]);
      let r = null;
      try { r = parseServerFlight(acc); } catch (e) { r = { error: String(e) }; }
      if (r || acc.length > 65536) {
        done = true;
        acc = null;
        if (localPort !== null) {
          seen.set(localPort, r || { error: 'no ServerHello in 64 KiB' });
          if (seen.size > 1000) seen.delete(seen.keys().next().value);
        }
      }
    }
    client.write(d);
  });
  client.on('data', (d) => upstream.write(d));
  client.on('end', () => upstream.end());
  upstream.on('end', () => client.end());
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
});

server.listen(0, '127.0.0.1', () => {
  relay.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({
      port: server.address().port,
      relay: relay.address().port,
      node: process.version,
      openssl: process.versions.openssl,
    }) + '\n');
  });
});

const stop = () => process.exit(0);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();
setTimeout(stop, 600000).unref();

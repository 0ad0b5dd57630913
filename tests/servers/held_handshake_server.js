'use strict';
// An https (HTTP/1.1) server on a loopback port whose TLS handshakes can be
// held, for the connection pool tests: the first --fast N TCP connections
// (default 1) handshake at once; every later one is accepted but left
// unread, so the client's dial stays in its TLS handshake, until the control
// port's /release hands the held ones to the https server.
//
//   node held_handshake_server.js --cert C.pem --key K.pem [--fast N]
//
// Prints {"port":N,"control":M} once both listen; stops when stdin closes
// (and after a bound of 600 s regardless).
//
// https GET /port-after/<ms>: after <ms> ms, the client's port of the
//   connection that carried the request (which connection it was)
// control (plain http):
//   GET /stats   {"accepted", "handshakes", "held", "heldClosed"}: TCP
//                connections accepted, TLS handshakes completed, connections
//                held now, held connections the client closed
//   GET /release hands every held connection to the https server
const fs = require('fs');
const http = require('http');
const https = require('https');
const net = require('net');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

const fast = Number(arg('--fast', '1'));
let accepted = 0;
let handshakes = 0;
let heldClosed = 0;
const held = new Set();

const tlsServer = https.createServer({ cert: fs.readFileSync(arg('--cert')), key: fs.readFileSync(arg('--key')) }, (req, res) => {
  const parts = new URL(req.url, 'https://x').pathname.split('/').filter(Boolean);
  if (parts[0] !== 'port-after') {
    res.writeHead(404);
    res.end();
    return;
  }
  const ms = Math.min(Number(parts[1] || 0), 60000);
  const port = String(req.socket.remotePort);
  const t = setTimeout(() => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(port);
  }, ms);
  res.on('close', () => clearTimeout(t));
});
tlsServer.keepAliveTimeout = 30000;
tlsServer.on('secureConnection', () => { ++handshakes; });
tlsServer.on('tlsClientError', () => {});

// A held socket's bytes (the ClientHello) are kept aside, so that its
// 'close' shows when the client gives up; released, they go back in front
// of the socket, where the TLS socket that wraps it reads them first.
const heldBytes = new Map();

function release(sock) {
  held.delete(sock);
  sock.removeAllListeners('data');
  sock.removeAllListeners('close');
  sock.pause();
  const bytes = Buffer.concat(heldBytes.get(sock) || []);
  heldBytes.delete(sock);
  if (bytes.length) sock.unshift(bytes);
  tlsServer.emit('connection', sock);
}

const front = net.createServer((sock) => {
  ++accepted;
  sock.on('error', () => {});
  if (accepted <= fast) {
    tlsServer.emit('connection', sock);
    return;
  }
  held.add(sock);
  heldBytes.set(sock, []);
  sock.on('data', (d) => heldBytes.get(sock).push(d));
  sock.on('close', () => {
    heldBytes.delete(sock);
    if (held.delete(sock)) ++heldClosed;
  });
});

const control = http.createServer((req, res) => {
  if (req.url === '/release') {
    for (const s of [...held]) release(s);
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ accepted, handshakes, held: held.size, heldClosed }));
});

let ready = 0;
function listening() {
  if (++ready < 2) return;
  process.stdout.write(JSON.stringify({ port: front.address().port, control: control.address().port }) + '\n');
}
front.listen(0, '127.0.0.1', listening);
control.listen(0, '127.0.0.1', listening);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
setTimeout(() => process.exit(0), 600000).unref();

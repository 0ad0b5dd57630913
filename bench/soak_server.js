// The soak test's server (bench/soak.js): plain HTTP/1.1 with keep-alive on
// 127.0.0.1, and a route per fault. Prints {"port":N}; ends when stdin
// closes.
//   /ok          200, 64 bytes of text
//   /reset       the socket destroyed before any answer
//   /stall       no answer at all (the client's timeout ends it)
//   /truncated   Content-Length 4096, 100 bytes, then the socket destroyed
//   /badgzip     Content-Encoding: gzip over bytes that are not gzip
//   /badchunk    a chunked body whose second chunk size is not hex
'use strict';
const http = require('http');

const OK = 'x'.repeat(64);
const stalled = new Set();
const server = http.createServer((req, res) => {
  switch (req.url) {
    case '/ok':
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': OK.length });
      return res.end(OK);
    case '/reset':
      return req.socket.destroy();
    case '/stall':
      stalled.add(req.socket);
      req.socket.on('close', () => stalled.delete(req.socket));
      return;
    case '/truncated':
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 4096 });
      res.write('y'.repeat(100));
      return setImmediate(() => req.socket.destroy());
    case '/badgzip':
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip', 'Content-Length': 32 });
      return res.end('not gzip at all, not even close.');
    case '/badchunk':
      req.socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nworld\r\n0\r\n\r\n');
      return setImmediate(() => req.socket.destroy());
    default:
      res.writeHead(404);
      return res.end();
  }
});
server.keepAliveTimeout = 120000;
server.headersTimeout = 130000;
server.maxRequestsPerSocket = 0;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

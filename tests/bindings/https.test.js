'use strict';
// HTTPS through the library from inside Node (node --test). The node binary
// exports its own OpenSSL's symbols (SSL_new, SSL_CTX_new, ...); the library
// links BoringSSL statically with hidden symbols, so its TLS must work in
// this process and Node's own TLS must keep working beside it.
//
// The https servers are Node's own, in this process, with the test PKI of
// tests/servers/make_certs.sh made into a temp folder; SSL_CERT_FILE points
// at its root before the library's first TLS request (it reads it once).
const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const https = require('https');
const { execFileSync } = require('child_process');
const { Worker } = require('worker_threads');

const { repoRoot, libPath, withTimeout } = require('./common');
const { loadLib, AsyncClient } = require('./ffi');

const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tlsc-https-pki-'));
execFileSync('bash', [path.join(repoRoot, 'tests', 'servers', 'make_certs.sh'), certDir], { stdio: 'ignore', timeout: 120000 });
process.env.SSL_CERT_FILE = path.join(certDir, 'ca.pem');

const lib = loadLib(libPath());
const cert = fs.readFileSync(path.join(certDir, 'good.pem'));
const key = fs.readFileSync(path.join(certDir, 'good.key'));
const ca = fs.readFileSync(path.join(certDir, 'ca.pem'));

function input(url, extra = {}) {
  return Object.assign({
    tlsClientIdentifier: 'chrome_131',
    requestUrl: url,
    requestMethod: 'GET',
    headers: { 'User-Agent': 'koffi-https-test', Accept: '*/*' },
    headerOrder: ['user-agent', 'accept'],
    followRedirects: false,
    timeoutSeconds: 10,
  }, extra);
}

/** The blocking `request`, freeing the library's copy as bindings do. */
function requestSync(obj) {
  const r = JSON.parse(lib.request(JSON.stringify(obj)));
  if (r.id) lib.freeMemory(r.id);
  return r;
}

/** The blocking `request` run on koffi's worker thread, so this (JS) thread
 * can serve the in-process https server meanwhile. */
function requestOffThread(obj) {
  return new Promise((resolve, reject) => {
    lib.request.async(JSON.stringify(obj), (err, s) => {
      if (err) return reject(err);
      const r = JSON.parse(s);
      if (r.id) lib.freeMemory(r.id);
      resolve(r);
    });
  });
}

// The handler of both servers: GET says hello, anything else echoes its body;
// the headers say which TLS the connection uses.
const handlerSource = `(req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const s = req.socket;
    const body = req.method === 'GET' ? Buffer.from('hello over tls from ' + process.version) : Buffer.concat(chunks);
    res.writeHead(200, {
      'Content-Type': 'text/plain',
      'Content-Length': String(body.length),
      'X-TLS-Protocol': String(s.getProtocol()),
      'X-TLS-Cipher': s.getCipher().standardName,
      'X-Method': req.method,
      'X-UA': String(req.headers['user-agent'] || ''),
      'X-Remote-Port': String(s.remotePort),
    });
    res.end(body);
  });
}`;
// eslint-disable-next-line no-eval
const handler = eval(handlerSource);

describe('https through the library inside Node', { timeout: 120000 }, () => {
  let server;
  let url;
  let worker;
  let workerUrl;

  before(async () => {
    server = https.createServer({ cert, key }, handler);
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${server.address().port}`;
    // A second server on a worker thread, for the blocking call on this thread.
    worker = new Worker(`
      const https = require('https');
      const { parentPort, workerData } = require('worker_threads');
      const s = https.createServer({ cert: workerData.cert, key: workerData.key }, ${handlerSource});
      s.listen(0, '127.0.0.1', () => parentPort.postMessage(s.address().port));
      parentPort.on('message', (m) => { if (m === 'stop') s.close(() => process.exit(0)); });
    `, { eval: true, workerData: { cert, key } });
    const port = await withTimeout(new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    }), 10000, 'worker server did not start');
    workerUrl = `https://127.0.0.1:${port}`;
  });

  after(async () => {
    lib.setNotify(null);
    if (server) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    if (worker) {
      worker.postMessage('stop');
      await withTimeout(new Promise((r) => worker.once('exit', r)), 5000, 'worker did not stop').catch(() => worker.terminate());
    }
    const d = JSON.parse(lib.destroyAll());
    if (d.id) lib.freeMemory(d.id);
    fs.rmSync(certDir, { recursive: true, force: true });
  });

  it('the node binary has its own OpenSSL (what the library must not bind to)', () => {
    assert.match(process.versions.openssl, /^\d+\.\d+\.\d+/);
  });

  it('request (blocking, on this thread) to an https server on a worker thread', () => {
    const r = requestSync(input(`${workerUrl}/hello`));
    assert.equal(r.status, 200, r.body);
    assert.equal(r.body, `hello over tls from ${process.version}`);
    assert.equal(r.headers['X-Tls-Protocol'][0], 'TLSv1.3');
    assert.equal(r.headers['X-Ua'][0], 'koffi-https-test');
    const p = requestSync(input(`${workerUrl}/echo`, { requestMethod: 'POST', requestBody: 'posted over tls' }));
    assert.equal(p.status, 200, p.body);
    assert.equal(p.body, 'posted over tls');
  });

  it('request (blocking, run off-thread by koffi) to the https server of this thread; GET, POST, keep-alive', async () => {
    const sid = 'https-in-node';
    const a = await withTimeout(requestOffThread(input(`${url}/hello`, { sessionId: sid })), 20000);
    assert.equal(a.status, 200, a.body);
    assert.equal(a.body, `hello over tls from ${process.version}`);
    assert.equal(a.usedProtocol, 'HTTP/1.1');
    assert.equal(a.headers['X-Tls-Protocol'][0], 'TLSv1.3');
    const big = 'x'.repeat(100000);
    const b = await withTimeout(requestOffThread(input(`${url}/echo`, { sessionId: sid, requestMethod: 'POST', requestBody: big })), 20000);
    assert.equal(b.status, 200, b.body);
    assert.equal(b.body, big);
    assert.equal(b.headers['X-Method'][0], 'POST');
    assert.equal(b.headers['X-Remote-Port'][0], a.headers['X-Remote-Port'][0], 'one connection for the session');
    const d = JSON.parse(lib.destroySession(JSON.stringify({ sessionId: sid })));
    assert.equal(d.success, true);
    lib.freeMemory(d.id);
  });

  it('requestAsync / waitNext to the https server of this thread', async () => {
    const client = new AsyncClient(lib);
    try {
      const rs = await withTimeout(Promise.all([
        client.request(input(`${url}/a`)),
        client.request(input(`${url}/b`, { requestMethod: 'PUT', requestBody: 'put over tls' })),
        client.request(input(`${workerUrl}/c`)),
      ]), 30000, 'async requests did not finish');
      for (const r of rs) assert.equal(r.status, 200, r.body);
      assert.equal(rs[0].body, `hello over tls from ${process.version}`);
      assert.equal(rs[1].body, 'put over tls');
      assert.equal(rs[2].headers['X-Tls-Protocol'][0], 'TLSv1.3');
    } finally {
      client.close();
    }
  });

  it('waitNext(timeout) from this thread with no notify set, while a worker thread serves', async () => {
    lib.setNotify(null);
    const started = JSON.parse(lib.requestAsync(JSON.stringify(input(`${workerUrl}/d`))));
    assert.ok(started.id && started.status === undefined, JSON.stringify(started));
    let got = [];
    const deadline = Date.now() + 20000;
    while (got.length === 0 && Date.now() < deadline) got = JSON.parse(lib.waitNext(1000));
    assert.equal(got.length, 1);
    assert.equal(got[0].id, started.id);
    assert.equal(got[0].status, 200, got[0].body);
  });

  it('a certificate the test root did not sign fails with a tls reason', async () => {
    const other = https.createServer({
      cert: fs.readFileSync(path.join(certDir, 'selfsigned.pem')),
      key: fs.readFileSync(path.join(certDir, 'selfsigned.key')),
    }, handler);
    await new Promise((r) => other.listen(0, '127.0.0.1', r));
    try {
      const r = await withTimeout(requestOffThread(input(`https://127.0.0.1:${other.address().port}/`)), 20000);
      assert.equal(r.status, 0);
      assert.equal(r.errorCode, 'tls_verify');
      assert.match(r.body, /tls: failed to verify certificate: x509: certificate signed by unknown authority/);
    } finally {
      other.closeAllConnections();
      await new Promise((r) => other.close(r));
    }
  });

  it("Node's own https client still works beside the library", async () => {
    const body = await withTimeout(new Promise((resolve, reject) => {
      https.get(`${url}/node-client`, { ca }, (res) => {
        let d = '';
        res.on('data', (c) => { d += c; });
        res.on('end', () => resolve(d));
      }).on('error', reject);
    }), 10000);
    assert.equal(body, `hello over tls from ${process.version}`);
  });
});

'use strict';
// node-tls-client 2.1.0, unchanged, loads what packaging/install.sh put in
// its cache folder, and that is our library (run by install_test.sh with
// TMPDIR set to that folder):
//   node node_loads_ours.js PACKAGE_DIR EXPECTED_FILE
// 1. the package's own LibraryHandler.path is EXPECTED_FILE;
// 2. a Session GET to a loopback server started here answers 200;
// 3. Session.close() (destroySession through the package's worker pool)
//    answers with "tlsClientCpp", which only our library writes;
// 4. /proc/self/maps has EXPECTED_FILE mapped (the workers are threads of
//    this process).
// No network: the file must exist before the package is asked to load it,
// or node-tls-client would download upstream's from GitHub.
const fs = require('fs');
const http = require('http');
const path = require('path');

const [pkgDir, expected] = process.argv.slice(2);
if (!pkgDir || !expected) {
  console.error('usage: node node_loads_ours.js PACKAGE_DIR EXPECTED_FILE');
  process.exit(2);
}
if (!fs.existsSync(expected)) {
  console.error(`FAIL: ${expected} is missing (node-tls-client would download upstream's)`);
  process.exit(1);
}

const bound = (p, ms, what) => {
  let t;
  return Promise.race([p, new Promise((_, rej) => { t = setTimeout(() => rej(new Error(`${what}: no answer in ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(t));
};

async function main() {
  const { LibraryHandler } = require(path.join(pkgDir, 'dist', 'utils', 'native.js'));
  if (LibraryHandler.path !== expected) throw new Error(`node-tls-client loads ${LibraryHandler.path}, not ${expected}`);
  const tls = require(pkgDir);

  const srv = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`hello ${req.method} ${req.url}`);
  });
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${srv.address().port}/install-test`;
  try {
    await bound(tls.initTLS(), 20000, 'initTLS');
    const s = new tls.Session();
    const res = await bound(s.get(url), 20000, 'GET');
    if (res.status !== 200 || res.body !== 'hello GET /install-test') {
      throw new Error(`GET ${url}: status ${res.status}, body ${String(res.body).slice(0, 200)}`);
    }
    const closed = JSON.parse(await bound(s.close(), 20000, 'Session.close'));
    if (!closed.tlsClientCpp || !closed.tlsClientCpp.version) {
      throw new Error(`destroySession answered without tlsClientCpp: ${JSON.stringify(closed).slice(0, 200)}`);
    }
    const real = fs.realpathSync(expected);
    const mapped = fs.readFileSync('/proc/self/maps', 'utf8').split('\n').some((l) => l.endsWith(` ${real}`));
    if (!mapped) throw new Error(`${real} is not in /proc/self/maps`);
    console.log(`node-tls-client GET ${url}: 200`);
    console.log(`node-tls-client destroySession: tlsClientCpp ${closed.tlsClientCpp.version} (${closed.tlsClientCpp.platform})`);
    console.log(`mapped in this process: ${real}`);
    await bound(tls.destroyTLS(), 20000, 'destroyTLS');
  } finally {
    srv.close();
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(`FAIL: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});

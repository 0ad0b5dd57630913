'use strict';
// Child process of koffi_async.test.js: the library must survive being
// "unloaded" and loaded again, as Go's c-shared libraries do (Go links them
// with -z nodelete, so dlclose does nothing). node-tls-client loads the
// library only in piscina worker threads, which piscina ends when idle, and
// koffi offers lib.unload(); a library really unmapped while its threads run
// crashes the process, and one unloaded and reloaded loses its sessions.
// 1. worker thread A loads it, runs an async and a blocking request and sets
//    a cookie in a session, then exits; worker B loads it and must find the
//    cookie. 2. the main thread loads it, starts its threads, calls
//    lib.unload(), loads it again: the session's cookie is still there and
//    requests work. Exit 0 on success.
const { Worker } = require('worker_threads');
const path = require('path');
const koffi = require('koffi');
const { libPath } = require('./common');

const base = process.env.RELOAD_URL; // http://127.0.0.1:port
const LIB = libPath();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const bound = setTimeout(() => { console.error('reload: 20 s bound hit'); process.exit(3); }, 20000);

function session(lib, sid) {
  const ask = (p) => {
    const r = JSON.parse(lib.request(JSON.stringify({ sessionId: sid, tlsClientIdentifier: 'chrome_131',
      requestUrl: base + p, requestMethod: 'GET', timeoutMilliseconds: 10000 })));
    lib.freeMemory(r.id);
    return r;
  };
  const asyncOne = () => {
    lib.requestAsync(JSON.stringify({ requestUrl: base + '/fixed', requestMethod: 'GET', timeoutMilliseconds: 10000 }));
    let got = [];
    for (let i = 0; i < 200 && !got.length; i++) got = JSON.parse(lib.waitNext(50)); // never blocks: no notify set
    return got.length ? got[0].status : null;
  };
  return { ask, asyncOne };
}

const workerCode = `
  const { parentPort, workerData } = require('worker_threads');
  const { loadLib } = require(${JSON.stringify(path.join(__dirname, 'ffi.js'))});
  const lib = loadLib(workerData.lib);
  const base = workerData.base;
  const ask = (p) => { const r = JSON.parse(lib.request(JSON.stringify({ sessionId: 'reload-w',
    tlsClientIdentifier: 'chrome_131', requestUrl: base + p, requestMethod: 'GET', timeoutMilliseconds: 10000 })));
    lib.freeMemory(r.id); return r; };
  lib.requestAsync(JSON.stringify({ requestUrl: base + '/fixed', requestMethod: 'GET', timeoutMilliseconds: 10000 }));
  let got = [];
  for (let i = 0; i < 200 && !got.length; i++) got = JSON.parse(lib.waitNext(50));
  const out = { async: got.length ? got[0].status : null };
  if (workerData.step === 1) out.set = ask('/set-cookie?w=kept').status;
  const c = ask('/cookies');
  out.cookies = c.status === 200 ? JSON.parse(c.body).cookies : null;
  parentPort.postMessage(out);
`;
function runWorker(step) {
  return new Promise((resolve, reject) => {
    const w = new Worker(workerCode, { eval: true, workerData: { base, step, lib: LIB } });
    let msg = null;
    w.on('message', (m) => { msg = m; });
    w.on('error', reject);
    w.on('exit', (c) => (c === 0 && msg ? resolve(msg) : reject(new Error(`worker ${step} exit ${c}`))));
  });
}

function bind(l) {
  return {
    l,
    request: l.func('request', 'str', ['str']),
    freeMemory: l.func('freeMemory', 'void', ['str']),
    requestAsync: l.func('requestAsync', 'str', ['str']),
    waitNext: l.func('waitNext', 'str', ['int']),
  };
}

(async () => {
  const fails = [];
  // 1. worker threads
  const a = await runWorker(1);
  if (global.gc) global.gc();
  await sleep(300);
  const b = await runWorker(2);
  if (a.async !== 200 || a.set !== 200 || !a.cookies || a.cookies.w !== 'kept') fails.push(`worker A: ${JSON.stringify(a)}`);
  if (b.async !== 200 || !b.cookies || b.cookies.w !== 'kept') fails.push(`worker B did not find A's session: ${JSON.stringify(b)}`);

  // 2. lib.unload() and load again in the main thread
  let lib = bind(koffi.load(LIB));
  let s = session(lib, 'reload-m');
  if (s.asyncOne() !== 200) fails.push('main: async before unload');
  if (s.ask('/set-cookie?m=kept').status !== 200) fails.push('main: set-cookie');
  lib.l.unload();
  await sleep(300);
  lib = bind(koffi.load(LIB));
  s = session(lib, 'reload-m');
  const c = s.ask('/cookies');
  if (c.status !== 200 || JSON.parse(c.body).cookies.m !== 'kept') fails.push(`main: after unload/load the session is gone: ${c.status} ${c.body}`);
  if (s.asyncOne() !== 200) fails.push('main: async after reload');

  clearTimeout(bound);
  console.log(fails.length ? `reload: FAIL\n${fails.join('\n')}` : 'reload: ok');
  process.exit(fails.length ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(2); });

'use strict';
// The library loaded with koffi directly: requestAsync / waitNext / setNotify,
// and the blocking request from several worker_threads (node --test).
//
// The JS thread never blocks in waitNext(-1): koffi runs a callback that
// arrives on a foreign thread on the JS thread and blocks that thread until
// it has run, so a JS thread waiting in the library for that thread would
// deadlock. Responses are collected with waitNext(0) from a setImmediate
// scheduled by the notify callback.
const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { spawn } = require('child_process');
const { Worker } = require('worker_threads');
const { randomUUID } = require('crypto');

const { libPath, withTimeout, targetNode } = require('./common');
const { spawnServer } = require('./servers');
const { koffi, NotifyCb, loadLib, AsyncClient } = require('./ffi');

const LIB = libPath();
const lib = loadLib(LIB);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ticks = async (n) => { for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r)); };

function input(url, extra = {}) {
  return Object.assign({
    tlsClientIdentifier: 'chrome_131',
    requestUrl: url,
    requestMethod: 'GET',
    headers: { 'User-Agent': 'koffi-async-test', Accept: '*/*' },
    headerOrder: ['user-agent', 'accept'],
    followRedirects: false,
    timeoutMilliseconds: 30000,
  }, extra);
}

/** Runs a node child process; resolves to {code, out}; code is 'timeout' when killed at boundMs. */
function runNodeChild(args, extraEnv, boundMs) {
  const [node, ...pre] = targetNode();
  const child = spawn(node, [...pre, ...args], {
    env: Object.assign({}, process.env, { TLS_CLIENT_LIB: LIB }, extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  return new Promise((resolve) => {
    const t = setTimeout(() => { child.kill('SIGKILL'); resolve({ code: 'timeout', out }); }, boundMs);
    child.on('exit', (c, sig) => { clearTimeout(t); resolve({ code: c === null ? sig : c, out }); });
  });
}

/** Collects with waitNext(0) until `want` responses have come or ms passed. */
async function pollFor(want, ms) {
  const got = [];
  const deadline = Date.now() + ms;
  while (got.length < want && Date.now() < deadline) {
    const s = lib.waitNext(0);
    const arr = JSON.parse(s);
    if (arr.length) got.push(...arr); else await sleep(5);
  }
  return got;
}

describe('koffi: async trio and threads', { timeout: 180000 }, () => {
  let srv;

  before(async () => {
    srv = await spawnServer({ maxSeconds: 600 });
  });

  after(async () => {
    lib.setNotify(null);
    if (srv) await srv.close();
  });

  it('waitNext(0) with nothing in flight returns "[]" at once', () => {
    const t0 = process.hrtime.bigint();
    assert.equal(lib.waitNext(0), '[]');
    assert.equal(lib.waitNext(0), '[]');
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    assert.ok(ms < 200, `waitNext(0) took ${ms} ms`);
  });

  it('waitNext(timeout) with nothing in flight returns "[]" after the timeout (a polling thread does not spin)', () => {
    const t0 = Date.now();
    assert.equal(lib.waitNext(150), '[]');
    const dt = Date.now() - t0;
    assert.ok(dt >= 140 && dt < 2000, `waitNext(150) took ${dt} ms`);
  });

  it('waitNext(timeout) with a slow request in flight returns "[]" after about the timeout, then the response', async () => {
    const o = JSON.parse(lib.requestAsync(JSON.stringify(input(srv.url('/delay/1500/slow')))));
    assert.equal(typeof o.id, 'string', JSON.stringify(o));
    const t0 = Date.now();
    const s = lib.waitNext(200); // no notify callback is set: blocking here cannot deadlock
    const dt = Date.now() - t0;
    assert.equal(s, '[]');
    assert.ok(dt >= 150 && dt < 1400, `waitNext(200) took ${dt} ms`);
    const got = await pollFor(1, 10000);
    assert.equal(got.length, 1);
    assert.equal(got[0].id, o.id);
    assert.equal(got[0].status, 200);
  });

  it('keep-alive: one session reuses its connections (sequential; and parallel with transportOptions.maxIdleConnsPerHost)', async () => {
    const get = (p, extra = {}) => {
      const r = JSON.parse(lib.request(JSON.stringify(input(srv.url(p), extra))));
      lib.freeMemory(r.id);
      return r;
    };
    const stats = (reset) => JSON.parse(get(`/_stats${reset ? '?reset=1' : ''}`).body);
    const sid = randomUUID();
    stats(true);
    for (let i = 0; i < 20; i++) assert.equal(get('/fixed', { sessionId: sid }).status, 200);
    let st = stats(false);
    assert.equal(st.requests, 20);
    // the stats requests use a session of their own (one more connection)
    assert.ok(st.connections <= 2, `20 sequential requests in one session opened ${st.connections} connections`);

    const sid2 = randomUUID();
    const transportOptions = { maxIdleConnsPerHost: 16, maxIdleConns: 16 };
    stats(true);
    for (let round = 0; round < 5; round++) {
      const ids = new Set();
      for (let i = 0; i < 16; i++) {
        const o = JSON.parse(lib.requestAsync(JSON.stringify(input(srv.url('/delay/30'), { sessionId: sid2, transportOptions }))));
        ids.add(o.id);
      }
      const got = await pollFor(16, 10000);
      assert.equal(got.length, 16);
      for (const r of got) { assert.ok(ids.has(r.id)); assert.equal(r.status, 200); }
    }
    st = stats(false);
    assert.equal(st.requests, 80);
    assert.ok(st.connections <= 16 + 2, `5 rounds of 16 parallel requests in one session (16 idle allowed) opened ${st.connections} connections`);
    for (const id of [sid, sid2]) lib.freeMemory(JSON.parse(lib.destroySession(JSON.stringify({ sessionId: id }))).id);
  });

  it('bad input to requestAsync returns a status-0 Response at once and queues nothing', async () => {
    const bads = [
      'not json',
      '',
      '{',
      '[]',
      '{}',
      JSON.stringify({ requestMethod: 'GET' }), // no requestUrl
      JSON.stringify({ requestUrl: 5, requestMethod: 'GET' }),
    ];
    for (const b of bads) {
      const t0 = Date.now();
      const s = lib.requestAsync(b);
      const dt = Date.now() - t0;
      const o = JSON.parse(s);
      assert.equal(o.status, 0, `input ${JSON.stringify(b)} -> ${s}`);
      assert.equal(o.errorCode, 'invalid_input', `input ${JSON.stringify(b)} -> ${s}`);
      assert.ok(typeof o.body === 'string' && o.body.length > 0, `no reason for ${JSON.stringify(b)}: ${s}`);
      assert.ok(dt < 500, `requestAsync(${JSON.stringify(b)}) took ${dt} ms`);
    }
    await sleep(200);
    assert.equal(lib.waitNext(0), '[]', 'a refused request was queued');
  });

  it('a request that fails on the network finishes through waitNext with status 0', async () => {
    const o = JSON.parse(lib.requestAsync(JSON.stringify(input('http://127.0.0.1:1/', { timeoutMilliseconds: 5000 }))));
    assert.equal(typeof o.id, 'string', JSON.stringify(o));
    assert.equal(o.status, undefined, 'accepted requests return only {"id"}');
    const got = await pollFor(1, 10000);
    assert.equal(got.length, 1, 'no response');
    assert.equal(got[0].id, o.id);
    assert.equal(got[0].status, 0);
    assert.equal(got[0].errorCode, 'connect');
    assert.ok(got[0].body.length > 0);
    lib.freeMemory(o.id); // allowed, does nothing
    assert.equal(lib.waitNext(0), '[]');
  });

  it('5,000 requests started at once all complete exactly once, ids matched, within 60 s', async () => {
    const N = parseInt(process.env.ASYNC_N || '5000', 10);
    const client = new AsyncClient(lib);
    const sessionId = randomUUID();
    const byId = new Map(); // id -> index
    const done = new Array(N).fill(0);
    const errors = [];
    let finished = 0;
    let resolveAll;
    const all = new Promise((r) => { resolveAll = r; });
    const t0 = Date.now();
    for (let i = 0; i < N; i++) {
      const st = client.start(input(srv.url(`/delay/50/r${i}`), { sessionId }), (r) => {
        const idx = byId.get(r.id);
        done[idx]++;
        if (done[idx] > 1) errors.push(`request ${idx} (${r.id}) finished ${done[idx]} times`);
        else if (r.status !== 200) errors.push(`request ${idx}: status ${r.status}: ${String(r.body).slice(0, 200)}`);
        else {
          let b;
          try { b = JSON.parse(r.body); } catch { b = {}; }
          if (b.path !== `/delay/50/r${idx}`) errors.push(`request ${idx} got the body of ${b.path}`);
          if (r.sessionId !== undefined && r.sessionId !== sessionId) errors.push(`request ${idx}: sessionId ${r.sessionId}`);
        }
        if (++finished === N) resolveAll();
      });
      if (st.error) assert.fail(`requestAsync refused request ${i}: ${JSON.stringify(st.error)}`);
      if (byId.has(st.id)) assert.fail(`duplicate request id ${st.id}`);
      byId.set(st.id, i);
    }
    const startMs = Date.now() - t0;
    try {
      await withTimeout(all, 60000, `only ${finished}/${N} finished in 60 s (notifies ${client.stats.notifies})`);
    } finally {
      client.close();
    }
    const ms = Date.now() - t0;
    // a response arriving twice would be counted as unknown after its first delivery
    await sleep(200);
    client.drain();
    assert.deepEqual(errors.slice(0, 10), [], `${errors.length} errors`);
    assert.equal(client.stats.unknownIds, 0, `responses with unknown or repeated ids: ${JSON.stringify(client.unknown.slice(0, 3)).slice(0, 500)}`);
    assert.equal(client.stats.badPending, 0, `notify called ${client.stats.badPending} times with pending < 1 (values seen: ${JSON.stringify(client.stats.badPendingValues)})`);
    assert.ok(client.stats.notifies >= 1, 'notify never called');
    assert.equal(done.filter((d) => d !== 1).length, 0);
    assert.equal(lib.waitNext(0), '[]');
    console.log(`# ${N} async requests: started in ${startMs} ms, all done in ${ms} ms; ` +
      `notifies ${client.stats.notifies}, batches ${client.stats.batches}, max batch ${client.stats.maxBatch}`);
    const d = JSON.parse(lib.destroySession(JSON.stringify({ sessionId })));
    assert.equal(d.success, true);
    lib.freeMemory(d.id);
  });

  it('setNotify(null) stops callbacks; responses still arrive through waitNext', async () => {
    let calls = 0;
    const cb = koffi.register(() => { calls++; }, koffi.pointer(NotifyCb));
    try {
      lib.setNotify(cb);
      // callbacks come while registered
      for (let i = 0; i < 5; i++) lib.requestAsync(JSON.stringify(input(srv.url(`/delay/20/on${i}`))));
      const deadline = Date.now() + 10000;
      while (calls === 0 && Date.now() < deadline) await sleep(5);
      assert.ok(calls >= 1, 'notify not called while registered');
      const first = await pollFor(5, 10000);
      assert.equal(first.length, 5);

      lib.setNotify(null);
      await ticks(5); // let any call koffi had already queued run
      await sleep(50);
      const before = calls;
      // Three waves, each left queued long enough for a call, then collected
      // (a waitNext re-arms the notification): were setNotify(null) ignored,
      // each wave would bring one. The contract lets one call that had
      // already started when setNotify(null) returned (the notify thread had
      // decided on it, koffi had not yet run it) run late, and no more: the
      // notify thread makes one call at a time.
      for (let wave = 0; wave < 3; wave++) {
        for (let i = 0; i < 10; i++) lib.requestAsync(JSON.stringify(input(srv.url(`/delay/20/off${wave}-${i}`))));
        await sleep(400);
        const rest = await pollFor(10, 10000);
        assert.equal(rest.length, 10);
        assert.deepEqual(rest.map((r) => r.status), new Array(10).fill(200));
      }
      await ticks(5);
      assert.ok(calls - before <= 1, `${calls - before} notify calls after setNotify(null) returned (at most the one already started may come)`);
    } finally {
      lib.setNotify(null);
      await ticks(5);
      koffi.unregister(cb);
    }
  });

  it('setNotify(null) from the JS thread while callbacks are firing does not deadlock (child process, 30 s bound)', async () => {
    const { code, out } = await runNodeChild([path.join(__dirname, 'koffi_notify_race.js')], { RACE_URL: srv.url('/delay/') }, 30000);
    const why = code !== 'timeout' ? `exit ${code}` : /race: \d+ requests/.test(out)
      ? 'finished its checks but did not exit (hang at process exit?)' : 'hung (deadlock in setNotify(NULL)?)';
    assert.equal(code, 0, `race child: ${why}\n${out.slice(-2000)}`);
  });

  it('survives unload and reload: worker threads that load it come and go, koffi lib.unload() (child process)', async () => {
    const { code, out } = await runNodeChild(['--expose-gc', path.join(__dirname, 'koffi_reload.js')], { RELOAD_URL: srv.url('') }, 30000);
    const why = code !== 'timeout' ? `exit ${code}` : /reload: ok/.test(out) ? 'finished its checks but did not exit (hang at process exit?)' : 'hung';
    assert.equal(code, 0, `reload child: ${why}\n${out.slice(-2000)}`);
  });

  for (const [name, body] of [
    ['process.exit() with requests in flight and a notify callback set', `
      const cb = koffi.register(() => {}, koffi.pointer(NotifyCb)); lib.setNotify(cb);
      for (let i = 0; i < 200; i++) lib.requestAsync(JSON.stringify({ requestUrl: base + '/delay/' + (i % 40), requestMethod: 'GET', sessionId: 's' + (i % 3) }));
      setTimeout(() => process.exit(0), 20);`],
    ['natural exit after all responses are collected', `
      for (let i = 0; i < 20; i++) lib.requestAsync(JSON.stringify({ requestUrl: base + '/fixed', requestMethod: 'GET' }));
      let n = 0; const t = setInterval(() => { n += JSON.parse(lib.waitNext(0)).length; if (n >= 20) clearInterval(t); }, 5);`],
  ]) {
    it(`the process exits promptly: ${name} (child process, 15 s bound)`, async () => {
      const script = `
        const { koffi, NotifyCb, loadLib } = require(${JSON.stringify(path.join(__dirname, 'ffi.js'))});
        const lib = loadLib(); const base = process.env.EXIT_URL;
        JSON.parse(lib.request(JSON.stringify({ requestUrl: base + '/fixed', requestMethod: 'GET' })));
        ${body}`;
      const t0 = Date.now();
      const { code, out } = await runNodeChild(['-e', script], { EXIT_URL: srv.url('') }, 15000);
      assert.equal(code, 0, `child: ${code === 'timeout' ? 'did not exit in 15 s (hangs at exit?)' : code} after ${Date.now() - t0} ms\n${out.slice(-1500)}`);
    });
  }

  it('is marked NODELETE (-z nodelete), as Go links its c-shared libraries', (t) => {
    let dyn;
    try {
      dyn = require('child_process').execFileSync('readelf', ['-d', LIB], { encoding: 'utf8' });
    } catch {
      t.skip('readelf not available');
      return;
    }
    assert.match(dyn, /FLAGS_1.*NODELETE/, 'FLAGS_1 lacks NODELETE: dlclose (koffi lib.unload(), piscina ending its workers) could unmap the library while its threads run');
  });

  it('blocking request from 8 worker_threads at once: each gets its own responses', async () => {
    const W = 8;
    const PER = parseInt(process.env.THREAD_REQS || '25', 10);
    const code = `
      const { parentPort, workerData } = require('worker_threads');
      const { loadLib } = require(${JSON.stringify(path.join(__dirname, 'ffi.js'))});
      const lib = loadLib(workerData.lib);
      const out = [];
      for (let j = 0; j < workerData.per; j++) {
        const p = '/delay/20/w' + workerData.w + '-' + j;
        const s = lib.request(JSON.stringify({
          sessionId: workerData.sid, tlsClientIdentifier: 'chrome_131',
          requestUrl: workerData.base + p, requestMethod: j % 2 ? 'POST' : 'GET',
          requestBody: j % 2 ? 'body-' + workerData.w + '-' + j : null,
          headers: { 'User-Agent': 'worker-' + workerData.w }, timeoutMilliseconds: 20000 }));
        const r = JSON.parse(s);
        lib.freeMemory(r.id);
        let path = null;
        try { path = JSON.parse(r.body).path; } catch {}
        out.push({ want: p, status: r.status, path, id: r.id });
      }
      parentPort.postMessage(out);
    `;
    const sid = randomUUID();
    const t0 = Date.now();
    const results = await withTimeout(Promise.all(Array.from({ length: W }, (_, w) => new Promise((resolve, reject) => {
      const worker = new Worker(code, { eval: true, workerData: { lib: LIB, w, per: PER, base: srv.url(''), sid } });
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (c) => { if (c !== 0) reject(new Error(`worker ${w} exit ${c}`)); });
    }))), 60000, 'workers did not finish in 60 s');
    const dt = Date.now() - t0;
    const ids = new Set();
    results.forEach((rs, w) => {
      assert.equal(rs.length, PER);
      for (const r of rs) {
        assert.equal(r.status, 200, `worker ${w} ${r.want}`);
        assert.equal(r.path, r.want, `worker ${w} got another thread's response`);
        assert.ok(!ids.has(r.id), `response id ${r.id} seen twice`);
        ids.add(r.id);
      }
    });
    // the threads overlap: 8 x PER requests of 20 ms take far less than serially
    assert.ok(dt < W * PER * 20, `took ${dt} ms`);
    assert.equal(lib.waitNext(0), '[]', 'blocking requests leaked into the async queue');
    const d = JSON.parse(lib.destroySession(JSON.stringify({ sessionId: sid })));
    lib.freeMemory(d.id);
  });

  it('waitNext(0) is "[]" once everything has been collected', async () => {
    await sleep(100);
    assert.equal(lib.waitNext(0), '[]');
  });
});

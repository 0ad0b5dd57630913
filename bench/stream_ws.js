'use strict';
// Streamed bodies and WebSocket echo (bench/README.md "Streams and
// WebSockets"): the library through koffi on Node's main thread, as a
// binding of the new ABI uses it (requestStream/wsConnect on a worker
// thread, then reads only when notifyOnData says a read will not wait),
// next to undici's and wreq-js's body streams and the `ws` and wreq-js
// WebSocket clients, against one local server (plain HTTP and ws:// on
// loopback: the TLS cost is the same for every client and measured in the
// other parts). Each client runs in its own process, so CPU time and peak
// RSS are its own.
//   stream  GET /body?n=STREAM_MB MiB, written as fast as the client takes
//           it: time to the first byte, MB/s to the end, CPU, peak RSS.
//           ours at its default streamOutputBlockSize (4096, upstream's)
//           and with 1 MiB chunks.
//   ws      WS_MESSAGES text messages of WS_SIZE bytes echoed, WS_WINDOW in
//           flight: messages/s, CPU per message, peak RSS.
// Writes bench/results/stream_ws.json; prints the table and the ratios
// (ours ÷ the best peer; MB/s and messages/s: higher is better).
//
//   node bench/stream_ws.js            (TLS_CLIENT_LIB, else build/libtls-client.so)
const { spawn } = require('child_process');
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const { createRequire } = require('module');

const ROOT = path.resolve(__dirname, '..');
const req = createRequire(path.join(ROOT, 'tests', 'bindings', 'package.json'));
const STREAM_MB = Number(process.env.STREAM_MB || 256);
const WS_MESSAGES = Number(process.env.WS_MESSAGES || 20000);
const WS_SIZE = Number(process.env.WS_SIZE || 1024);
const WS_WINDOW = Number(process.env.WS_WINDOW || 32);
const RUNS = Number(process.env.BENCH_RUNS || 3);
const CHILD_BOUND_MS = 120000;

// ---- the server ---------------------------------------------------------
function serve() {
  const { WebSocketServer } = req('ws');
  const block = Buffer.alloc(64 << 10, 'x');
  const server = http.createServer((rq, res) => {
    const n = Math.min(4096, Number(new URL(rq.url, 'http://x').searchParams.get('n') || 1)) << 20;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': n });
    let left = n;
    const pump = () => {
      while (left > 0) {
        const piece = left >= block.length ? block : block.subarray(0, left);
        left -= piece.length;
        if (!res.write(piece)) return res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
  server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

// ---- one client run (a child process) -------------------------------------
function peakRssMB() {
  const m = fs.readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
  return m ? Number(m[1]) / 1024 : null;
}

function ours() {
  const { koffi, NotifyCb } = require(path.join(ROOT, 'tests', 'bindings', 'ffi'));
  const lib = koffi.load(process.env.TLS_CLIENT_LIB || path.join(ROOT, 'build', 'libtls-client.so'));
  const f = (name, ret, args) => lib.func(name, ret, args);
  return {
    koffi, NotifyCb,
    requestStream: f('requestStream', 'str', ['str']),
    readStream: f('readStream', 'str', ['str']),
    wsConnect: f('wsConnect', 'str', ['str']),
    wsRead: f('wsRead', 'str', ['str']),
    wsWrite: f('wsWrite', 'str', ['str']),
    wsClose: f('wsClose', 'str', ['str']),
    freeMemory: f('freeMemory', 'void', ['str']),
    waitNext: f('waitNext', 'str', ['int']),
    setNotify: f('setNotify', 'void', [koffi.pointer(NotifyCb)]),
  };
}

// Events through setNotify: the callback only schedules a drain (koffi runs
// it on the JavaScript thread); the drain hands each event to `onEvent`.
function onEvents(L, onEvent) {
  const cb = L.koffi.register(() => setImmediate(() => {
    for (let k = 0; k < 1000; k++) {
      const batch = JSON.parse(L.waitNext(0));
      if (batch.length === 0) break;
      for (const e of batch) onEvent(e);
    }
  }), L.koffi.pointer(L.NotifyCb));
  L.setNotify(cb);
  // koffi's registered callbacks do not keep Node's event loop alive: with
  // nothing else pending Node would exit while the library still calls in
  // (and koffi, torn down, crashes). A timer holds the loop meanwhile.
  const keepAlive = setInterval(() => {}, 1 << 30);
  // A call the library had started before setNotify(null) may still be
  // parked in koffi for this thread: the loop runs it in the next 200 ms,
  // then the callback goes.
  return async () => {
    clearInterval(keepAlive);
    L.setNotify(null);
    await new Promise((r) => setTimeout(r, 200));
    L.koffi.unregister(cb);
  };
}

function owned(L, fn, arg) {
  const r = JSON.parse(fn(JSON.stringify(arg)));
  L.freeMemory(r.id);
  return r;
}

function asyncCall(L, fn, arg) {
  return new Promise((resolve, reject) => fn.async(JSON.stringify(arg), (err, out) => {
    if (err) return reject(err);
    const r = JSON.parse(out);
    L.freeMemory(r.id);
    resolve(r);
  }));
}

async function streamRun(client, url) {
  const t0 = process.hrtime.bigint();
  let first = null, bytes = 0, t1 = null;
  const mark = (n) => { if (first === null && n > 0) first = process.hrtime.bigint(); bytes += n; };
  if (client.startsWith('ours')) {
    const L = ours();
    const block = client === 'ours-1MiB-chunks' ? { streamOutputBlockSize: 1 << 20 } : {};
    const start = await asyncCall(L, L.requestStream, { requestUrl: url, requestMethod: 'GET', tlsClientIdentifier: 'chrome_133',
      timeoutMilliseconds: -1, notifyOnData: true, ...block });
    if (start.status !== 200) throw new Error(start.body);
    const streamId = start.streamId;
    let ended = false, done;
    const finished = new Promise((r) => { done = r; });
    const onEvent = () => {
      // An event queued just before the end may come out after it.
      if (ended) return;
      // Read until there is nothing (a poll never waits).
      for (let k = 0; k < 100000; k++) {
        const r = owned(L, L.readStream, { streamId, timeoutMs: 0 });
        if (r.error) throw new Error(r.error);
        if (r.eof) { ended = true; return done(); }
        if (r.timeout) return;
        mark(Buffer.from(r.chunk, 'base64').length);  // the bytes, as a user takes them
      }
    };
    const stop = onEvents(L, onEvent);
    await finished;
    t1 = process.hrtime.bigint();  // before the callback's 200 ms goodbye
    await stop();
  } else if (client === 'undici') {
    const { request } = req('undici');
    const r = await request(url);
    for await (const chunk of r.body) mark(chunk.length);
  } else if (client === 'wreq-js') {
    const w = req('wreq-js');
    const r = await w.fetch(url, { browser: 'chrome_133' });
    for await (const chunk of r.body) mark(chunk.length);
  } else {
    throw new Error('no stream client ' + client);
  }
  if (t1 === null) t1 = process.hrtime.bigint();
  if (bytes !== STREAM_MB << 20) throw new Error(`${bytes} bytes, expected ${STREAM_MB << 20}`);
  const ms = Number(t1 - t0) / 1e6;
  return { ttfbMs: Number(first - t0) / 1e6, ms, mbps: bytes / 1e6 / (ms / 1000) };
}

async function wsRun(client, url) {
  const payload = 'm'.repeat(WS_SIZE);
  let sent = 0, got = 0, t1 = null;
  let done;
  const finished = new Promise((r) => { done = r; });
  const t0 = process.hrtime.bigint();
  if (client === 'ours') {
    const L = ours();
    const c = await asyncCall(L, L.wsConnect, { url, tlsClientIdentifier: 'chrome_133', notifyOnData: true });
    if (c.status !== 101) throw new Error(c.body);
    const cid = c.connectionId;
    const send = () => { sent++; owned(L, L.wsWrite, { connectionId: cid, messageType: 1, data: payload }); };
    const onEvent = () => {
      if (got === WS_MESSAGES) return;  // closing: the id is going away
      // One read per event: it never waits (1 ms would time out if it did).
      const m = owned(L, L.wsRead, { connectionId: cid, timeoutMilliseconds: 1 });
      if (m.data !== payload) throw new Error('wsRead: ' + (m.body || 'wrong message'));
      got++;
      if (sent < WS_MESSAGES) send();
      if (got === WS_MESSAGES) done();
    };
    const stop = onEvents(L, onEvent);
    while (sent < Math.min(WS_WINDOW, WS_MESSAGES)) send();
    await finished;
    t1 = process.hrtime.bigint();
    owned(L, L.wsClose, { connectionId: cid });
    await stop();
  } else {
    let ws;
    if (client === 'ws') {
      const WebSocket = req('ws');
      ws = new WebSocket(url, { perMessageDeflate: false });
      await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    } else if (client === 'wreq-js') {
      ws = await req('wreq-js').websocket(url, { browser: 'chrome_133' });
    } else {
      throw new Error('no ws client ' + client);
    }
    ws.onmessage = (event) => {
      const data = typeof event.data === 'string' ? event.data : Buffer.from(event.data).toString();
      if (data !== payload) throw new Error('wrong message');
      got++;
      if (sent < WS_MESSAGES) { sent++; ws.send(payload); }
      if (got === WS_MESSAGES) done();
    };
    while (sent < Math.min(WS_WINDOW, WS_MESSAGES)) { sent++; ws.send(payload); }
    await finished;
    ws.close();
  }
  if (t1 === null) t1 = process.hrtime.bigint();
  const ms = Number(t1 - t0) / 1e6;
  return { ms, msgsPerSec: WS_MESSAGES / (ms / 1000) };
}

async function child() {
  const { client, scenario, url } = JSON.parse(process.env.STREAM_WS_SPEC);
  const cpu0 = process.cpuUsage();
  const r = scenario === 'stream' ? await streamRun(client, url) : await wsRun(client, url);
  const cpu = process.cpuUsage(cpu0);
  r.cpuMs = (cpu.user + cpu.system) / 1000;
  r.rssMB = peakRssMB();
  process.stdout.write(JSON.stringify(r) + '\n');
  setImmediate(() => process.exit(0));
}

// ---- the parent -----------------------------------------------------------
function runChild(spec) {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [__filename, '--child'], { env: { ...process.env, STREAM_WS_SPEC: JSON.stringify(spec) },
      stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    c.stdout.on('data', (d) => { out += d; });
    c.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => c.kill('SIGKILL'), CHILD_BOUND_MS);
    c.on('exit', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop();
      try { resolve(code === 0 ? JSON.parse(line) : { error: `exit ${code}: ${err.slice(-300)}` }); } catch { resolve({ error: err.slice(-300) || 'no output' }); }
    });
  });
}

const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

async function main() {
  const server = spawn(process.execPath, [__filename, '--server'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let buf = '';
    server.stdout.on('data', (d) => { buf += d; const nl = buf.indexOf('\n'); if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)).port); });
    setTimeout(() => reject(new Error('server did not start in 30 s')), 30000).unref();
  });
  const load0 = os.loadavg();
  console.log(`stream_ws: ${STREAM_MB} MiB bodies, ${WS_MESSAGES} messages of ${WS_SIZE} bytes (${WS_WINDOW} in flight), ${RUNS} runs each; ${os.cpus().length} cpus, load ${load0.map((x) => x.toFixed(2)).join(' ')}`);
  const scenarios = [
    { scenario: 'stream', url: `http://127.0.0.1:${port}/body?n=${STREAM_MB}`, clients: ['ours-koffi', 'ours-1MiB-chunks', 'undici', 'wreq-js'],
      metrics: [['ttfbMs', 'TTFB ms', -1], ['mbps', 'MB/s', 1], ['cpuMs', 'CPU ms', -1], ['rssMB', 'peak RSS MB', -1]] },
    { scenario: 'ws', url: `ws://127.0.0.1:${port}/`, clients: ['ours', 'ws', 'wreq-js'],
      metrics: [['msgsPerSec', 'messages/s', 1], ['cpuMs', 'CPU ms', -1], ['rssMB', 'peak RSS MB', -1]] },
  ];
  const results = {};
  for (const s of scenarios) {
    results[s.scenario] = {};
    for (const client of s.clients) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await runChild({ client, scenario: s.scenario, url: s.url }));
      const ok = runs.filter((r) => !r.error);
      const row = { runs };
      if (ok.length === 0) row.error = runs[0].error;
      for (const [m] of s.metrics) if (ok.length) row[m] = median(ok.map((r) => r[m]));
      results[s.scenario][client] = row;
      console.log(`${s.scenario} ${client}: ` + (row.error ? `FAILED ${row.error}` : s.metrics.map(([m, label]) => `${label} ${row[m].toFixed(1)}`).join(', ')));
    }
    // Ratios: ours ÷ the best peer (for "higher is better" metrics the best
    // is the highest; for the others the lowest).
    const peers = s.clients.filter((c) => !c.startsWith('ours') && !results[s.scenario][c].error);
    results[s.scenario].ratios = {};
    for (const c of s.clients.filter((x) => x.startsWith('ours'))) {
      const row = results[s.scenario][c];
      if (row.error || peers.length === 0) continue;
      const r = {};
      for (const [m, , dir] of s.metrics) {
        const vals = peers.map((p) => results[s.scenario][p][m]);
        const best = dir > 0 ? Math.max(...vals) : Math.min(...vals);
        r[m] = row[m] / best;
      }
      results[s.scenario].ratios[c] = r;
      console.log(`${s.scenario} ${c} ÷ best peer: ` + Object.entries(r).map(([m, v]) => `${m} ${v.toFixed(2)}x`).join(', '));
    }
  }
  server.stdin.end();
  const out = { date: new Date().toISOString(), load: { before: load0, after: os.loadavg() }, cpus: os.cpus().length, node: process.version,
    settings: { STREAM_MB, WS_MESSAGES, WS_SIZE, WS_WINDOW, RUNS }, results };
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', 'stream_ws.json'), JSON.stringify(out, null, 2) + '\n');
  const failed = Object.values(results).some((sc) => Object.values(sc).some((row) => row && row.error));
  process.exit(failed ? 1 : 0);
}

if (process.argv.includes('--server')) serve();
else if (process.argv.includes('--child')) child().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
else main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });

'use strict';
// One bench run in its own process (started by bench/run.js), so that its
// peak memory and CPU time are its own. Input: env BENCH_SPEC (JSON):
//   {client, mode: "loop"|"burst", inflight, requests, url, deadlineMs, warmup,
//    keepAlive (default true: false = a new connection for every request),
//    tls: {caFile, cycletlsVerify: "ca"|"skip"} for https URLs,
//    h2 (true: the server speaks HTTP/2 only; undici gets allowH2, cycletls
//    drops forceHTTP1; the others negotiate it by ALPN as they are),
//    h2MaxStreams (the h2 server's MAX_CONCURRENT_STREAMS, 0: none),
//    profile (ours), browser: {wreq, impit}, cycletls: {ja3, userAgent}}
// Output: one JSON line on stdout (the last line), also when the deadline
// cuts the run short (then finished: false). CPU time and peak RSS include
// the client's child processes (cycletls runs its Go engine in one).
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const http = require('http');
const https = require('https');
const { createRequire } = require('module');
const { randomUUID } = require('crypto');

const BINDINGS = path.resolve(__dirname, '..', 'tests', 'bindings');
const req = createRequire(path.join(BINDINGS, 'package.json'));
const spec = JSON.parse(process.env.BENCH_SPEC);

function procStatusKB(field) {
  const m = fs.readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? parseInt(m[1], 10) : null;
}
const CLK_TCK = 100; // Linux USER_HZ
function mainThreadCpuMs() {
  try {
    const s = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return ((parseInt(f[11], 10) + parseInt(f[12], 10)) * 1000) / CLK_TCK; // utime, stime
  } catch { return null; }
}

// --- child processes (cycletls's Go engine): CPU and peak RSS -------------
function childPidsOf(pid) {
  const out = [];
  let tasks = [];
  try { tasks = fs.readdirSync(`/proc/${pid}/task`); } catch { return out; }
  for (const t of tasks) {
    let s = '';
    try { s = fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8'); } catch { continue; }
    for (const c of s.trim().split(/\s+/)) if (c) out.push(parseInt(c, 10));
  }
  return out;
}
function descendants() {
  const seen = new Set();
  const stack = [process.pid];
  for (let n = 0; stack.length && n < 1000; n++) {
    for (const c of childPidsOf(stack.pop())) if (!seen.has(c)) { seen.add(c); stack.push(c); }
  }
  return [...seen];
}
function procCpuMs(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return ((parseInt(f[11], 10) + parseInt(f[12], 10)) * 1000) / CLK_TCK;
  } catch { return null; }
}
function procHwmKB(pid) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
    return m ? parseInt(m[1], 10) : 0;
  } catch { return 0; }
}
function childCpuSnapshot() {
  const snap = new Map();
  for (const p of descendants()) { const v = procCpuMs(p); if (v !== null) snap.set(p, v); }
  return snap;
}
const startedChildren = new Set();
function killStartedChildren() {
  for (const p of startedChildren) { try { process.kill(p, 'SIGKILL'); } catch { /* gone */ } }
}

// the installed version of a package (some, like wreq-js, do not export ./package.json)
function pkgVersion(name) {
  try { return JSON.parse(fs.readFileSync(path.join(BINDINGS, 'node_modules', name, 'package.json'), 'utf8')).version; } catch { return null; }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// --- clients: each returns {one(i) -> Promise<boolean ok>, close()} ---------
async function makeClient(name, inflight) {
  const url = spec.url;
  const u = new URL(url);
  const isHttps = u.protocol === 'https:';
  const keepAlive = spec.keepAlive !== false;
  const tls = spec.tls || {};
  // Node-based clients: one secure context with the test CA, shared by every
  // connection (with a bare `ca` option Node builds a context per connection,
  // about 0.5 ms more per new connection here)
  const secureContext = isHttps && tls.caFile
    ? require('tls').createSecureContext({ ca: fs.readFileSync(tls.caFile) }) : undefined;
  if (name === 'node-fetch') {
    const fetch = req('node-fetch');
    const A = isHttps ? https.Agent : http.Agent;
    const agent = new A({ keepAlive, maxSockets: Infinity, maxFreeSockets: Math.max(256, inflight), secureContext });
    return {
      version: pkgVersion('node-fetch'),
      one: async () => {
        const r = await fetch(url, { agent });
        await r.text();
        return r.status === 200;
      },
      close: () => agent.destroy(),
    };
  }
  if (name === 'node-https') {
    // Node's own http/https.request; keepAlive false: a new connection (and
    // "Connection: close") per request, TLS sessions cached by the agent as
    // Node does by default (maxCachedSessions 100)
    const mod = isHttps ? https : http;
    const agent = new mod.Agent({ keepAlive, maxSockets: Infinity, maxFreeSockets: Math.max(256, inflight), secureContext });
    return {
      version: `node ${process.version}`,
      one: () => new Promise((resolve, reject) => {
        const r = mod.get(url, { agent }, (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode === 200));
          res.on('error', reject);
        });
        r.on('error', reject);
        r.setTimeout(30000, () => r.destroy(new Error('timeout')));
      }),
      close: () => agent.destroy(),
    };
  }
  if (name === 'undici' && spec.h2) {
    // HTTP/2: one Client (one connection) with allowH2; pipelining is how
    // many requests it puts on that connection at once (default 1, which
    // would send one stream at a time): as many as the run has in flight.
    // maxConcurrentStreams is what it assumes of the server until the
    // server's SETTINGS arrive (default 100): as many as in flight too, or
    // the server's limit when the bench gives it one (h2MaxStreams), since
    // undici sends that many streams before the SETTINGS arrive and does
    // not retry the ones the server refuses (REFUSED_STREAM)
    const { Client } = req('undici');
    const n = Math.max(1, inflight);
    const client = new Client(u.origin, {
      allowH2: true, pipelining: n, maxConcurrentStreams: spec.h2MaxStreams > 0 ? spec.h2MaxStreams : n, keepAliveTimeout: 60000,
      connect: secureContext ? { secureContext } : undefined,
    });
    const p = u.pathname + u.search;
    return {
      version: pkgVersion('undici'),
      one: async () => {
        const { statusCode, body } = await client.request({ path: p, method: 'GET' });
        await body.text();
        return statusCode === 200;
      },
      close: () => client.destroy(),
    };
  }
  if (name === 'undici') {
    const { Pool } = req('undici');
    const pool = new Pool(u.origin, { connections: Math.max(1, inflight), pipelining: 1, keepAliveTimeout: 60000, connect: secureContext ? { secureContext } : undefined });
    const p = u.pathname + u.search;
    return {
      version: pkgVersion('undici'),
      one: async () => {
        // reset: "Connection: close" and a new connection for the next request
        const { statusCode, body } = await pool.request({ path: p, method: 'GET', reset: !keepAlive });
        await body.text();
        return statusCode === 200;
      },
      close: () => pool.destroy(),
    };
  }
  if (name === 'wreq-js') {
    // Its verifier takes no CA file: trustStore "defaultPaths" makes it use
    // BoringSSL's default verify paths, which honour SSL_CERT_FILE (set by
    // run.js to the test CA). keepAlive false: a transport that keeps no idle
    // connection (poolMaxIdlePerHost 0), passed on each session.fetch.
    const w = req('wreq-js');
    const browser = (spec.browser && spec.browser.wreq) || 'chrome_133';
    const session = await w.createSession({ browser, trustStore: 'defaultPaths', timeout: 30000 });
    const transport = keepAlive ? undefined
      : await w.createTransport({ browser, trustStore: 'defaultPaths', poolMaxIdlePerHost: 0 });
    return {
      version: pkgVersion('wreq-js'),
      one: async () => {
        const r = await session.fetch(url, transport ? { transport } : undefined);
        await r.text();
        return r.status === 200;
      },
      close: async () => { await session.close(); if (transport && transport.close) await transport.close(); },
    };
  }
  if (name === 'impit') {
    // rustls with rustls-platform-verifier: on Linux the system roots, where
    // SSL_CERT_FILE (the test CA, set by run.js) is honoured. It has no
    // keep-alive switch: keepAlive false sends "Connection: close".
    // spec.h3: HTTP/3 on (http3) and required (forceHttp3).
    const { Impit } = req('impit');
    const im = new Impit({ browser: (spec.browser && spec.browser.impit) || 'chrome', timeout: 30000, http3: !!spec.h3 });
    const opts = spec.h3 ? { forceHttp3: true } : keepAlive ? undefined : { headers: { Connection: 'close' } };
    return {
      version: pkgVersion('impit'),
      one: async () => {
        const r = await im.fetch(url, opts);
        await r.text();
        return r.status === 200;
      },
      close: () => {},
    };
  }
  if (name === 'cycletls') {
    // A Go engine in a child process, spoken to over a loopback websocket.
    // Its spawn passes the engine no environment but WS_PORT, so to trust the
    // test CA (cycletlsVerify "ca") we point its executablePath option at a
    // two-line wrapper that sets SSL_CERT_FILE (Go's crypto/x509 honours it)
    // and execs the shipped binary; "skip" uses insecureSkipVerify instead.
    const initCycleTLS = req('cycletls');
    const port = await freePort();
    let executablePath;
    const skip = isHttps && tls.cycletlsVerify === 'skip';
    if (isHttps && !skip && tls.caFile) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cycletls-'));
      process.on('exit', () => { try { fs.rmSync(dir, { recursive: true, force: true }); } catch { /* ignore */ } });
      const bin = path.join(path.dirname(req.resolve('cycletls')), 'index');
      executablePath = path.join(dir, 'cycletls-ca');
      fs.writeFileSync(executablePath, `#!/bin/sh\nSSL_CERT_FILE='${tls.caFile}' exec '${bin}' "$@"\n`, { mode: 0o755 });
    }
    const c = await initCycleTLS({ port, executablePath, timeout: 20000 });
    for (const p of descendants()) startedChildren.add(p);
    const cy = spec.cycletls || {};
    // HTTP/1.1 parts: forceHTTP1; h2: ALPN as the JA3 offers it (h2 first).
    // cy.reuse: its enableConnectionReuse option (off by default)
    const opts = {
      ja3: cy.ja3, userAgent: cy.userAgent, forceHTTP1: !spec.h2, insecureSkipVerify: skip, timeout: 30,
      headers: { Accept: '*/*' }, responseType: 'text',
    };
    if (cy.reuse) opts.enableConnectionReuse = true;
    return {
      version: pkgVersion('cycletls'),
      one: async () => {
        const r = await c.get(url, opts);
        await r.text();
        return r.status === 200;
      },
      close: () => c.exit(),
    };
  }
  // BENCH_OURS_IDLE=default (the default): no transportOptions, the library
  // as a user runs it (it keeps the connections a session used, abi/COMPAT.md).
  // =match: the tuned configuration, transportOptions.maxIdleConns(PerHost)
  // = in flight. keepAlive false: disableKeepAlives (one session, so TLS
  // sessions are resumed as Node's agent does).
  const idle = process.env.BENCH_OURS_IDLE || 'default';
  const transportOptions = !keepAlive ? { disableKeepAlives: true }
    : idle === 'default' ? undefined
      : { maxIdleConns: Math.max(2, inflight), maxIdleConnsPerHost: Math.max(2, inflight) };
  const profile = spec.profile || 'chrome_131';
  // ours-koffi-h2: ours without withProtocolRacing, in the HTTP/3 part (the
  // same server over HTTP/2); ours-koffi there races HTTP/3 (spec.h3).
  if (name === 'ours-koffi' || name === 'baseline-koffi' || name === 'ours-koffi-h2') {
    const { loadLib, AsyncClient } = require(path.join(BINDINGS, 'ffi.js'));
    // baseline-koffi: the same client on another build (BENCH_BASELINE_LIB).
    const lib = name === 'baseline-koffi' ? loadLib(process.env.BENCH_BASELINE_LIB) : loadLib();
    const client = new AsyncClient(lib);
    const input = JSON.stringify({
      sessionId: randomUUID(),
      tlsClientIdentifier: profile,
      requestUrl: url,
      requestMethod: 'GET',
      headers: { 'User-Agent': 'bench', Accept: '*/*' },
      headerOrder: ['user-agent', 'accept'],
      timeoutMilliseconds: 30000,
      transportOptions,
      withProtocolRacing: spec.h3 && name !== 'ours-koffi-h2' ? true : undefined,
    });
    const usedProtocols = {};
    return {
      version: 'koffi ' + pkgVersion('koffi'),
      one: async () => {
        const r = await client.request(input);
        const v = r.usedProtocol || '?';
        usedProtocols[v] = (usedProtocols[v] || 0) + 1;
        return r.status === 200;
      },
      close: () => client.close(),
      stats: () => Object.assign({ usedProtocols }, client.stats),
    };
  }
  if (name === 'ours-ntc') {
    const { prepareNodeTlsClient } = require(path.join(BINDINGS, 'common.js'));
    const dir = prepareNodeTlsClient();
    process.on('exit', () => { try { fs.rmSync(dir, { recursive: true, force: true }); } catch { /* ignore */ } });
    const tlsc = req('node-tls-client');
    await tlsc.initTLS();
    const s = new tlsc.Session({ timeout: 30000, transportOptions, clientIdentifier: profile });
    return {
      version: 'node-tls-client ' + pkgVersion('node-tls-client'),
      one: async () => (await s.get(url)).status === 200,
      close: () => {},
    };
  }
  throw new Error(`unknown client ${name}`);
}

function pct(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const hardStop = setTimeout(() => { report({ error: 'hard stop' }, false); }, spec.deadlineMs + 15000);
  hardStop.unref();
  const c = await makeClient(spec.client, spec.inflight);

  // warm-up: warmupRounds (default 1) rounds at the run's concurrency (the
  // first opens its connections)
  if (spec.warmup) {
    const w = Math.min(spec.inflight, spec.warmup);
    const rounds = Math.max(1, Math.min(1000, spec.warmupRounds || 1));
    for (let r = 0; r < rounds; r++) {
      await Promise.all(Array.from({ length: w }, (_, i) => c.one(i).catch(() => false)));
    }
  }

  const rssStartKB = procStatusKB('VmRSS');
  const child0 = childCpuSnapshot();
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMs();
  const t0 = process.hrtime.bigint();
  const lat = [];
  let started = 0; let done = 0; let ok = 0; let errors = 0; let firstError = null;
  let inflightNow = 0;
  let finishedAll = false;

  const result = await new Promise((resolve) => {
    let stopped = false;
    const deadline = setTimeout(() => { stopped = true; resolve(false); }, spec.deadlineMs);
    const onDone = (ts, good, err) => {
      inflightNow--;
      done++;
      lat.push(Number(process.hrtime.bigint() - ts) / 1e6);
      if (good) ok++; else { errors++; if (!firstError) firstError = err ? String(err && err.message || err) : 'status != 200'; }
      if (done === spec.requests) { clearTimeout(deadline); finishedAll = true; resolve(true); return; }
      if (spec.mode === 'loop' && !stopped) launch();
    };
    const fire = () => {
      const i = started++;
      inflightNow++;
      const ts = process.hrtime.bigint();
      c.one(i).then((g) => onDone(ts, g, null), (e) => onDone(ts, false, e));
    };
    function launch() {
      while (inflightNow < spec.inflight && started < spec.requests && !stopped) fire();
    }
    if (spec.mode === 'burst') { for (let i = 0; i < spec.requests; i++) fire(); } else launch();
  });

  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const main1 = mainThreadCpuMs();
  const child1 = childCpuSnapshot();
  let childCpuMs = 0;
  let childPeakRssKB = 0;
  for (const [p, v] of child1) { childCpuMs += v - (child0.get(p) || 0); childPeakRssKB += procHwmKB(p); }
  lat.sort((a, b) => a - b);
  const selfCpuMs = (cpu.user + cpu.system) / 1000;
  const cpuMs = selfCpuMs + childCpuMs;
  const selfPeakKB = procStatusKB('VmHWM');
  const out = {
    client: spec.client,
    version: c.version,
    scenario: spec.scenario,
    mode: spec.mode,
    inflight: spec.inflight,
    url: spec.url,
    requested: spec.requests,
    started,
    done,
    ok,
    errors,
    firstError,
    finished: result && finishedAll,
    wallMs: Math.round(wallMs),
    rps: done / (wallMs / 1000),
    cpuUserMs: Math.round(cpu.user / 1000),
    cpuSysMs: Math.round(cpu.system / 1000),
    cpuPerReqUs: done ? (cpuMs * 1000) / done : null,
    mainThreadCpuMs: main0 !== null && main1 !== null ? main1 - main0 : null,
    otherThreadsCpuMs: main0 !== null && main1 !== null ? Math.max(0, Math.round(selfCpuMs - (main1 - main0))) : null,
    childProcesses: child1.size,
    childCpuMs: child1.size ? Math.round(childCpuMs) : undefined,
    rssStartKB,
    peakRssKB: selfPeakKB + childPeakRssKB,
    childPeakRssKB: child1.size ? childPeakRssKB : undefined,
    maxRssKB: process.resourceUsage().maxRSS,
    p50Ms: pct(lat, 50),
    p99Ms: pct(lat, 99),
    maxMs: lat.length ? lat[lat.length - 1] : null,
    clientStats: c.stats ? c.stats() : undefined,
  };
  for (const p of child1.keys()) startedChildren.add(p);
  // close (bounded), so that a client's engine process does not outlive it
  await Promise.race([Promise.resolve().then(() => c.close()).catch(() => {}), new Promise((r) => setTimeout(r, 3000))]);
  killStartedChildren();
  report(out, true);
}

let reported = false;
function report(obj, clean) {
  if (reported) return;
  reported = true;
  for (const p of descendants()) startedChildren.add(p);
  killStartedChildren();
  process.stdout.write(JSON.stringify(obj) + '\n', () => process.exit(clean ? 0 : 1));
}

main().catch((e) => {
  reported = false;
  report({ client: spec.client, scenario: spec.scenario, error: String(e && e.stack || e) }, false);
});

'use strict';
// One bench run in its own process (started by bench/run.js), so that its
// peak memory and CPU time are its own. Input: env BENCH_SPEC (JSON):
//   {client, mode: "loop"|"burst", inflight, requests, url, deadlineMs, warmup}
// Output: one JSON line on stdout (the last line), also when the deadline
// cuts the run short (then finished: false).
const fs = require('fs');
const path = require('path');
const http = require('http');
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

// --- clients: each returns {one(i) -> Promise<boolean ok>, close()} ---------
async function makeClient(name, inflight) {
  const url = spec.url;
  if (name === 'node-fetch') {
    const fetch = req('node-fetch');
    const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Math.max(256, inflight) });
    return {
      version: req('node-fetch/package.json').version,
      one: async () => {
        const r = await fetch(url, { agent });
        await r.text();
        return r.status === 200;
      },
      close: () => agent.destroy(),
    };
  }
  if (name === 'undici') {
    const { Pool } = req('undici');
    const u = new URL(url);
    const pool = new Pool(u.origin, { connections: Math.max(1, inflight), pipelining: 1, keepAliveTimeout: 60000 });
    const p = u.pathname + u.search;
    return {
      version: req('undici/package.json').version,
      one: async () => {
        const { statusCode, body } = await pool.request({ path: p, method: 'GET' });
        await body.text();
        return statusCode === 200;
      },
      close: () => pool.destroy(),
    };
  }
  // upstream's transport keeps 2 idle connections per host (Go's default),
  // so at higher concurrency most requests would open a new connection; the
  // reference clients keep every connection. BENCH_OURS_IDLE=match (default)
  // passes transportOptions.maxIdleConnsPerHost = in flight; =default leaves
  // upstream's default.
  const idle = process.env.BENCH_OURS_IDLE || 'match';
  const transportOptions = idle === 'default' ? undefined
    : { maxIdleConns: Math.max(2, inflight), maxIdleConnsPerHost: Math.max(2, inflight) };
  if (name === 'ours-koffi') {
    const { loadLib, AsyncClient } = require(path.join(BINDINGS, 'ffi.js'));
    const lib = loadLib();
    const client = new AsyncClient(lib);
    const input = JSON.stringify({
      sessionId: randomUUID(),
      tlsClientIdentifier: 'chrome_131',
      requestUrl: url,
      requestMethod: 'GET',
      headers: { 'User-Agent': 'bench', Accept: '*/*' },
      headerOrder: ['user-agent', 'accept'],
      timeoutMilliseconds: 30000,
      transportOptions,
    });
    return {
      version: 'koffi ' + req('koffi/package.json').version,
      one: async () => (await client.request(input)).status === 200,
      close: () => client.close(),
      stats: () => client.stats,
    };
  }
  if (name === 'ours-ntc') {
    const { prepareNodeTlsClient } = require(path.join(BINDINGS, 'common.js'));
    const dir = prepareNodeTlsClient();
    process.on('exit', () => { try { fs.rmSync(dir, { recursive: true, force: true }); } catch { /* ignore */ } });
    const tls = req('node-tls-client');
    await tls.initTLS();
    const s = new tls.Session({ timeout: 30000, transportOptions });
    return {
      version: 'node-tls-client ' + req('node-tls-client/package.json').version,
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

  // warm-up: one round at the run's concurrency (opens its connections)
  if (spec.warmup) {
    const w = Math.min(spec.inflight, spec.warmup);
    await Promise.all(Array.from({ length: w }, (_, i) => c.one(i).catch(() => false)));
  }

  const rssStartKB = procStatusKB('VmRSS');
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
  lat.sort((a, b) => a - b);
  const cpuMs = (cpu.user + cpu.system) / 1000;
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
    otherThreadsCpuMs: main0 !== null && main1 !== null ? Math.max(0, Math.round(cpuMs - (main1 - main0))) : null,
    rssStartKB,
    peakRssKB: procStatusKB('VmHWM'),
    maxRssKB: process.resourceUsage().maxRSS,
    p50Ms: pct(lat, 50),
    p99Ms: pct(lat, 99),
    maxMs: lat.length ? lat[lat.length - 1] : null,
    clientStats: c.stats ? c.stats() : undefined,
  };
  report(out, true);
}

let reported = false;
function report(obj, clean) {
  if (reported) return;
  reported = true;
  process.stdout.write(JSON.stringify(obj) + '\n', () => process.exit(clean ? 0 : 1));
}

main().catch((e) => {
  reported = false;
  report({ client: spec.client, scenario: spec.scenario, error: String(e && e.stack || e) }, false);
});

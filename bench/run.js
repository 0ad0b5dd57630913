#!/usr/bin/env node
'use strict';
// Side-by-side bench: node-fetch 2.7.0, undici, and our library through koffi
// (async trio) and through node-tls-client 2.1.0, against a local plain HTTP
// server in its own process; and over HTTPS (HTTP/1.1) against a local Node
// https server, next to wreq-js, impit and cycletls; and over HTTP/2 against
// a local Node http2 server (part h2). Every run is a fresh
// child process (bench/client.js). See bench/README.md. Writes
// bench/results/latest.json.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawn, execFileSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const BINDINGS = path.join(ROOT, 'tests', 'bindings');
const { spawnServer } = require(path.join(BINDINGS, 'servers.js'));
const { spawnHttpsServer } = require(path.join(__dirname, 'https_server.js'));
const { spawnH2Server } = require(path.join(__dirname, 'h2_server.js'));

const env = (k, d) => (process.env[k] !== undefined && process.env[k] !== '' ? process.env[k] : d);
const num = (k, d) => Number(env(k, d));
const list = (k, d) => String(env(k, d)).split(',').map((s) => s.trim()).filter(Boolean);

const CFG = {
  clients: list('BENCH_CLIENTS', 'node-fetch,undici,ours-koffi,ours-ntc'),
  levels: list('BENCH_LEVELS', '1,16,64,256,1024').map(Number),
  minRequests: num('BENCH_MIN_REQUESTS', 200), // per level: max(min, perInflight x inflight)
  perInflight: num('BENCH_PER_INFLIGHT', 20),
  runSeconds: num('BENCH_RUN_SECONDS', 15), // bound on one level's run
  delayMs: num('BENCH_DELAY_MS', 50),
  burst: num('BENCH_BURST', 5000),
  burstSeconds: num('BENCH_BURST_SECONDS', 30),
  cpuInflight: num('BENCH_CPU_INFLIGHT', 64),
  cpuRequests: num('BENCH_CPU_REQUESTS', 3000),
  cpuSeconds: num('BENCH_CPU_SECONDS', 15),
  oursIdle: env('BENCH_OURS_IDLE', 'default'),
  out: env('BENCH_OUT', path.join(__dirname, 'results', 'latest.json')),
  // which parts: http (plain HTTP), https (= https-load + https-conn), h2,
  // body (text bodies over HTTPS/1.1 and HTTPS/2), h3 (HTTP/3 through Caddy)
  only: list('BENCH_ONLY', 'http,https,h2,body,h3'),
  // part body: /body/<bytes> of the TLS servers, each size with its own
  // in-flight count and request count (bytes:inflight:requests)
  body: {
    clients: list('BENCH_BODY_CLIENTS', 'node-fetch,undici,wreq-js,impit,cycletls,ours-koffi'),
    sizes: list('BENCH_BODY_SIZES', '65536:16:2000,262144:16:800,10485760:1:20').map((t) => {
      const [bytes, inflight, requests] = t.split(':').map(Number);
      return { bytes, inflight, requests };
    }),
    protocols: list('BENCH_BODY_PROTOCOLS', 'h1,h2'),
    seconds: num('BENCH_BODY_SECONDS', 30),
  },
  https: {
    clients: list('BENCH_HTTPS_CLIENTS', 'node-fetch,undici,wreq-js,impit,cycletls,ours-koffi'),
    inflight: num('BENCH_HTTPS_INFLIGHT', 64),
    requests: num('BENCH_HTTPS_REQUESTS', 3000),
    seconds: num('BENCH_HTTPS_SECONDS', 20),
    burst: num('BENCH_HTTPS_BURST', 2000),
    burstSeconds: num('BENCH_HTTPS_BURST_SECONDS', 30),
    connClients: list('BENCH_TLSCONN_CLIENTS', 'node-https,wreq-js,ours-koffi'),
    connRequests: num('BENCH_TLSCONN_REQUESTS', 2000),
    connSeconds: num('BENCH_TLSCONN_SECONDS', 20),
    connRounds: num('BENCH_TLSCONN_ROUNDS', 2),
    certDir: env('BENCH_CERT_DIR', ''),
    leaf: env('BENCH_HTTPS_LEAF', 'good'),
    oursProfile: env('BENCH_HTTPS_OURS_PROFILE', 'chrome_133'),
    wreqBrowser: env('BENCH_HTTPS_WREQ_BROWSER', 'chrome_133'),
    impitBrowser: env('BENCH_HTTPS_IMPIT_BROWSER', 'chrome'),
    // Chrome 133's JA3 (extension order as tls-client's chrome_133 profile),
    // with 772 in the version field: that is how cycletls 2.0.5 offers TLS 1.3
    // (with the standard 771 it offers TLS 1.2 at most)
    cycletlsJa3: env('BENCH_CYCLETLS_JA3', '772,4865-4866-4867-49195-49199-49196-49200-52393-52392-49171-49172-156-157-47-53,0-23-65281-10-11-35-16-5-13-18-51-45-43-27-17613-65037,4588-29-23-24,0'),
    cycletlsUserAgent: env('BENCH_CYCLETLS_UA', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/133.0.0.0 Safari/537.36'),
    cycletlsVerify: env('BENCH_CYCLETLS_VERIFY', 'ca'),
  },
  // part h2: HTTPS over HTTP/2 against bench/h2_server.js (certificate,
  // profiles and CA trust as in the HTTPS parts)
  h2: {
    clients: list('BENCH_H2_CLIENTS', 'undici,wreq-js,impit,cycletls,ours-koffi'),
    inflight: num('BENCH_H2_INFLIGHT', 64),
    requests: num('BENCH_H2_REQUESTS', 3000),
    seconds: num('BENCH_H2_SECONDS', 20),
    burst: num('BENCH_H2_BURST', 2000),
    burstSeconds: num('BENCH_H2_BURST_SECONDS', 30),
    rounds: num('BENCH_H2_ROUNDS', 2),
    maxStreams: num('BENCH_H2_MAX_STREAMS', 0), // 0: Node's default (no limit)
    // cycletls's enableConnectionReuse (1: on): without it cycletls opens a
    // new connection for every h2 request; with it, it multiplexes on one
    cycletlsReuse: env('BENCH_H2_CYCLETLS_REUSE', '1') !== '0',
  },
  // part h3: HTTPS over HTTP/3 against Caddy (Debian's, on quic-go) in front
  // of tests/bindings/servers.js's /delay (reverse_proxy): the clients that
  // speak HTTP/3 (impit with http3 and forceHttp3; ours with
  // withProtocolRacing and a profile with a QUIC fingerprint), and ours over
  // HTTP/2 to the same Caddy (ours-koffi-h2) as the row to compare with
  h3: {
    clients: list('BENCH_H3_CLIENTS', 'impit,ours-koffi,ours-koffi-h2'),
    profile: env('BENCH_H3_OURS_PROFILE', 'chromium_156'),
    inflight: num('BENCH_H3_INFLIGHT', 64),
    requests: num('BENCH_H3_REQUESTS', 3000),
    seconds: num('BENCH_H3_SECONDS', 20),
    burst: num('BENCH_H3_BURST', 2000),
    burstSeconds: num('BENCH_H3_BURST_SECONDS', 30),
  },
};
// BENCH_BASELINE_LIB: another build of the library (the one before a
// change) runs as the client `baseline-koffi` next to ours-koffi, in the same
// run against the same servers; the tables' ratio columns then compare the
// two as they compare ours with every peer.
function withBaseline(list) {
  if (!process.env.BENCH_BASELINE_LIB || !list.includes('ours-koffi')) return list;
  const i = list.indexOf('ours-koffi');
  return [...list.slice(0, i + 1), 'baseline-koffi', ...list.slice(i + 1)];
}
CFG.clients = withBaseline(CFG.clients);
CFG.https.clients = withBaseline(CFG.https.clients);
CFG.https.connClients = withBaseline(CFG.https.connClients);
CFG.h2.clients = withBaseline(CFG.h2.clients);
CFG.body.clients = withBaseline(CFG.body.clients);
CFG.h3.clients = withBaseline(CFG.h3.clients);
const PARTS = new Set();
for (const p of CFG.only) {
  if (p === 'https') { PARTS.add('https-load'); PARTS.add('https-conn'); } else PARTS.add(p);
}

function libInfo() {
  const p = process.env.TLS_CLIENT_LIB
    ? path.resolve(process.cwd(), process.env.TLS_CLIENT_LIB)
    : path.join(ROOT, 'build', 'libtls-client.so');
  if (!fs.existsSync(p)) return { path: p, exists: false };
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  return { path: p, exists: true, sha256, bytes: fs.statSync(p).size };
}

function gitRev() {
  try { return execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(); } catch { return null; }
}

function serverStats(port, reset) { // port: the plain-HTTP port serving /_stats
  return new Promise((resolve) => {
    const r = require('http').get({ host: '127.0.0.1', port, path: `/_stats${reset ? '?reset=1' : ''}`, agent: false }, (res) => {
      let b = '';
      res.on('data', (d) => { b += d; });
      res.on('end', () => { try { resolve(JSON.parse(b)); } catch { resolve(null); } });
    });
    r.on('error', () => resolve(null));
    r.setTimeout(5000, () => { r.destroy(); resolve(null); });
  });
}

// statsPort: where /_stats is served; idleSockets: openSockets when no client
// is connected (the HTTP server counts the stats request itself)
async function runMeasured(statsPort, spec, { env: extraEnv = {}, idleSockets = 1 } = {}) {
  await serverStats(statsPort, true);
  const r = await runChild(spec, extraEnv);
  const st = await serverStats(statsPort, false);
  if (st) {
    r.server = { peakInflight: st.peakInflight, connectionsOpened: st.connections, requests: st.requests };
    if (st.resumed !== undefined) Object.assign(r.server, { resumed: st.resumed, tlsErrors: st.tlsErrors, firstTlsError: st.firstTlsError, tcpConnections: st.tcpConnections, protocols: st.protocols });
    if (st.sessions !== undefined) {
      Object.assign(r.server, { sessions: st.sessions, peakPerSession: st.peakPerSession, unknownProtocol: st.unknownProtocol, sessionErrors: st.sessionErrors, streamResets: st.streamResets, alpn: st.alpn });
    }
  }
  // let the server see the client's sockets close before the next run
  for (let i = 0; i < 50; i++) {
    const s = await serverStats(statsPort, false);
    if (!s || s.openSockets <= idleSockets) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  return r;
}

function runChild(spec, extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'client.js')], {
      env: Object.assign({}, process.env, extraEnv, { BENCH_SPEC: JSON.stringify(spec) }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = ''; let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const kill = setTimeout(() => child.kill('SIGKILL'), spec.deadlineMs + 30000);
    child.on('exit', (code, sig) => {
      clearTimeout(kill);
      const line = out.trim().split('\n').pop();
      let r;
      try { r = JSON.parse(line); } catch { r = { error: `no result (exit ${code === null ? sig : code})`, stderr: err.slice(-2000) }; }
      r.client = r.client || spec.client;
      r.scenario = r.scenario || spec.scenario;
      if (!r.error && err.trim()) r.stderrTail = err.trim().slice(-500);
      resolve(r);
    });
  });
}

const fmt = {
  int: (v) => (v === null || v === undefined || Number.isNaN(v) ? '-' : Math.round(v).toLocaleString('en-US')),
  f1: (v) => (v === null || v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1)),
  mb: (kb) => (kb ? (kb / 1024).toFixed(0) : '-'),
  ratio: (a, b) => (a && b ? (a / b).toFixed(2) : '-'),
};

// a client that could not speak h2 to the h2-only server: no request
// answered, and handshakes turned away for want of ALPN h2 (a client that
// offers no ALPN gets "unknownProtocol"; one that offers only http/1.1 a
// no_application_protocol alert, a TLS error)
const noH2 = (r) => !!(r && !r.error && r.server && !r.ok && (r.server.unknownProtocol
  || (r.server.tlsErrors && /application protocol/i.test(r.server.firstTlsError || ''))));

// body bytes per second of a body run (MB = 10^6 bytes)
const mbps = (r) => (r && r.bodyBytes && r.wallMs ? (r.done * r.bodyBytes) / (r.wallMs / 1000) / 1e6 : null);

function cell(r, metric) {
  if (!r) return 'n/a';
  if (r.error) return 'ERROR';
  if (noH2(r)) return 'n/a (no h2)';
  let s;
  switch (metric) {
    case 'rps': s = fmt.int(r.rps); break;
    case 'mbps': s = `${fmt.f1(mbps(r))} MB/s`; break;
    case 'wall': s = `${fmt.int(r.wallMs)} ms`; break;
    case 'peak': s = `${fmt.mb(r.peakRssKB)} MB`; break;
    case 'cpu': s = `${fmt.f1(r.cpuPerReqUs)} µs`; break;
    case 'cpumain': s = r.mainThreadCpuMs === null ? '-' : `${fmt.f1((r.mainThreadCpuMs * 1000) / r.done)} µs`; break;
    case 'conns': s = r.server ? fmt.int(r.server.connectionsOpened) : '-'; break;
    case 'tls': s = r.server ? `${fmt.int(r.server.connectionsOpened)} (${fmt.int(r.server.resumed)})` : '-'; break;
    case 'h2conns': s = r.server ? `${fmt.int(r.server.tcpConnections)} (${fmt.int(r.server.peakInflight)})` : '-'; break;
    default: s = '?';
  }
  if (!r.finished && !['conns', 'tls', 'h2conns'].includes(metric)) s += ` (${r.done}/${r.requested} in bound)`;
  if (r.errors) s += ` [${r.errors} err]`;
  return s;
}

function table(rows, clients) {
  const header = ['metric', ...clients];
  const ours = clients.filter((c) => c.startsWith('ours'));
  const refs = clients.filter((c) => !c.startsWith('ours'));
  const ratioCols = [];
  for (const o of ours) for (const r of refs) ratioCols.push([o, r]);
  header.push(...ratioCols.map(([o, r]) => `${o}÷${r}`));
  const lines = [header];
  for (const row of rows) {
    const line = [row.label, ...clients.map((c) => cell(row.results[c], row.metric))];
    for (const [o, r] of ratioCols) {
      const a = row.results[o]; const b = row.results[r];
      const val = (x) => (!x || x.error || noH2(x) ? null : row.metric === 'rps' ? x.rps : row.metric === 'mbps' ? mbps(x) : row.metric === 'wall' ? x.wallMs : row.metric === 'peak' ? x.peakRssKB : row.metric === 'cpu' ? x.cpuPerReqUs : row.metric === 'cpumain' ? (x.mainThreadCpuMs * 1000) / x.done : null);
      const va = val(a); const vb = val(b);
      const cut = (a && !a.error && !a.finished) || (b && !b.error && !b.finished);
      line.push(fmt.ratio(va, vb) + (cut && row.metric === 'wall' ? '*' : ''));
    }
    lines.push(line);
  }
  const w = header.map((_, i) => Math.max(...lines.map((l) => String(l[i]).length)));
  return lines.map((l, j) => {
    const s = l.map((v, i) => String(v).padEnd(w[i])).join('  ');
    return j === 0 ? `${s}\n${w.map((n) => '-'.repeat(n)).join('  ')}` : s;
  }).join('\n');
}

function progress(r) {
  const what = r.error ? `ERROR ${String(r.error).split('\n')[0]}` :
    `${r.done}/${r.requested} in ${r.wallMs} ms, ${fmt.int(r.rps)} req/s, ${fmt.f1(r.cpuPerReqUs)} µs cpu/req, peak ${fmt.mb(r.peakRssKB)} MB${r.errors ? `, ${r.errors} errors (${r.firstError})` : ''}`;
  let sv = '';
  if (r.server) {
    sv = `; server: peak ${r.server.peakInflight} in flight, ${r.server.connectionsOpened} connections`;
    if (r.server.resumed !== undefined) {
      sv += ` (${r.server.resumed} resumed${r.server.tlsErrors ? `, ${r.server.tlsErrors} aborted handshakes` : ''})`;
    }
    if (r.server.sessions !== undefined) {
      sv += `, ${r.server.sessions} h2 sessions, peak ${r.server.peakPerSession} streams on one${r.server.unknownProtocol ? `, ${r.server.unknownProtocol} without ALPN h2` : ''}${r.server.streamResets ? `, ${r.server.streamResets} streams reset` : ''}`;
    }
  }
  const used = r.clientStats && r.clientStats.usedProtocols;
  if (used && Object.keys(used).length) sv += `; usedProtocol ${Object.entries(used).map(([k, v]) => `${k} ×${v}`).join(', ')}`;
  console.log(`  ${r.scenario.padEnd(18)} ${r.client.padEnd(11)} ${what}${sv}`);
}

// 1-3: plain HTTP against tests/bindings/servers.js
async function partHttp(clients, runs) {
  const rows = [];
  const server = await spawnServer({ maxSeconds: 3600 });
  const delayUrl = server.url(`/delay/${CFG.delayMs}`);
  const fixedUrl = server.url('/fixed');
  console.log(`http: server 127.0.0.1:${server.port} (pid ${server.child.pid}), clients ${clients.join(', ')}`);
  const measure = async (spec) => {
    const r = await runMeasured(server.port, spec);
    runs.push(r); progress(r);
    return r;
  };
  try {
    // 1. throughput at fixed concurrency against the delayed server
    for (const k of CFG.levels) {
      const row = { label: `req/s @${k} in flight`, metric: 'rps', results: {} };
      for (const c of clients) {
        row.results[c] = await measure({
          client: c, scenario: `inflight-${k}`, mode: 'loop', inflight: k, url: delayUrl,
          requests: Math.max(CFG.minRequests, CFG.perInflight * k), deadlineMs: CFG.runSeconds * 1000, warmup: k,
        });
      }
      rows.push(row);
    }
    // 2. a burst started at once, cold: time to finish and peak RSS
    {
      const wall = { label: `${CFG.burst} at once: time`, metric: 'wall', results: {} };
      const peak = { label: `${CFG.burst} at once: peak RSS`, metric: 'peak', results: {} };
      const cpu = { label: `${CFG.burst} at once: CPU/req`, metric: 'cpu', results: {} };
      for (const c of clients) {
        const r = await measure({
          client: c, scenario: `burst-${CFG.burst}`, mode: 'burst', inflight: CFG.burst, url: delayUrl,
          requests: CFG.burst, deadlineMs: CFG.burstSeconds * 1000, warmup: 0,
        });
        wall.results[c] = r; peak.results[c] = r; cpu.results[c] = r;
      }
      rows.push(wall, peak, cpu);
    }
    // 3. CPU per request at fixed concurrency: delayed and instant server
    for (const [name, url] of [[`${CFG.delayMs}ms`, delayUrl], ['instant', fixedUrl]]) {
      const cpu = { label: `CPU/req @${CFG.cpuInflight}, ${name}`, metric: 'cpu', results: {} };
      const main = { label: `  of which JS thread`, metric: 'cpumain', results: {} };
      const rps = { label: `req/s @${CFG.cpuInflight}, ${name}`, metric: 'rps', results: {} };
      const conns = { label: `  connections opened`, metric: 'conns', results: {} };
      for (const c of clients) {
        const r = await measure({
          client: c, scenario: `cpu-${name}`, mode: 'loop', inflight: CFG.cpuInflight, url,
          requests: CFG.cpuRequests, deadlineMs: CFG.cpuSeconds * 1000, warmup: CFG.cpuInflight,
        });
        cpu.results[c] = r; main.results[c] = r; rps.results[c] = r; conns.results[c] = r;
      }
      rows.push(cpu, main, rps, conns);
    }
  } finally {
    await server.close();
  }
  return rows;
}

function makeCerts() {
  const H = CFG.https;
  if (H.certDir) {
    execFileSync('bash', [path.join(ROOT, 'tests', 'servers', 'make_certs.sh'), H.certDir], { stdio: 'inherit' });
    return { dir: path.resolve(H.certDir), remove: () => {} };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-certs-'));
  execFileSync('bash', [path.join(ROOT, 'tests', 'servers', 'make_certs.sh'), dir], { stdio: 'inherit' });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// 4-5: HTTPS over HTTP/1.1 against bench/https_server.js
async function partHttps(parts, lib, runs, certs) {
  const H = CFG.https;
  const tables = {};
  const caFile = path.join(certs.dir, 'ca.pem');
  const server = await spawnHttpsServer({ certDir: certs.dir, leaf: H.leaf, maxSeconds: 3600 });
  const base = {
    tls: { caFile, cycletlsVerify: H.cycletlsVerify },
    profile: H.oursProfile,
    browser: { wreq: H.wreqBrowser, impit: H.impitBrowser },
    cycletls: { ja3: H.cycletlsJa3, userAgent: H.cycletlsUserAgent },
  };
  // every client of these parts trusts the test CA: SSL_CERT_FILE for ours,
  // wreq-js, impit (and cycletls through its wrapper); the Node clients get
  // a secure context made from it
  const opts = { env: { SSL_CERT_FILE: caFile }, idleSockets: 0 };
  const measure = async (spec) => {
    const r = await runMeasured(server.statsPort, Object.assign({}, base, spec), opts);
    runs.push(r); progress(r);
    return r;
  };
  const keep = (cs) => cs.filter((c) => lib.exists || !c.startsWith('ours'));
  console.log(`https: server 127.0.0.1:${server.port} and :${server.noResumePort} (no resumption) (pid ${server.child.pid}), leaf ${H.leaf}, CA ${caFile}`);
  try {
    if (parts.has('https-load')) {
      const clients = keep(H.clients);
      const rows = [];
      const delayUrl = server.url(`/delay/${CFG.delayMs}`);
      const k = H.inflight;
      const rps = { label: `req/s @${k} in flight`, metric: 'rps', results: {} };
      const cpu = { label: `  CPU/req`, metric: 'cpu', results: {} };
      const main = { label: `  of which JS thread`, metric: 'cpumain', results: {} };
      const tlsRow = { label: `  TLS handshakes (resumed)`, metric: 'tls', results: {} };
      for (const c of clients) {
        const r = await measure({
          client: c, scenario: `https-inflight-${k}`, mode: 'loop', inflight: k, url: delayUrl,
          requests: H.requests, deadlineMs: H.seconds * 1000, warmup: k,
        });
        rps.results[c] = r; cpu.results[c] = r; main.results[c] = r; tlsRow.results[c] = r;
      }
      rows.push(rps, cpu, main, tlsRow);
      const wall = { label: `${H.burst} at once: time`, metric: 'wall', results: {} };
      const peak = { label: `  peak RSS`, metric: 'peak', results: {} };
      const bcpu = { label: `  CPU/req`, metric: 'cpu', results: {} };
      const btls = { label: `  TLS handshakes (resumed)`, metric: 'tls', results: {} };
      for (const c of clients) {
        const r = await measure({
          client: c, scenario: `https-burst-${H.burst}`, mode: 'burst', inflight: H.burst, url: delayUrl,
          requests: H.burst, deadlineMs: H.burstSeconds * 1000, warmup: 0,
        });
        wall.results[c] = r; peak.results[c] = r; bcpu.results[c] = r; btls.results[c] = r;
      }
      rows.push(wall, peak, bcpu, btls);
      tables.httpsLoad = { title: `HTTPS over HTTP/1.1, /delay/${CFG.delayMs}`, clients, rows };
    }
    if (parts.has('https-conn')) {
      const clients = keep(H.connClients);
      const rows = [];
      const n = H.connRequests;
      const variants = [
        ['new conn each, resumable', 'resume', server.url('/fixed'), false],
        ['new conn each, full handshake', 'full', server.noResumeUrl('/fixed'), false],
        ['one kept-alive conn', 'keepalive', server.url('/fixed'), true],
      ];
      const cpuRows = {};
      // every client runs each variant `connRounds` times, alternating the
      // order (A B C, C B A, ...); the table shows each client's fastest run
      // (least disturbed by other processes), all runs are in the JSON
      const rounds = Math.max(1, Math.min(5, H.connRounds));
      for (const [label, tag, url, keepAlive] of variants) {
        const cpu = { label: `${label}: CPU/req`, metric: 'cpu', results: {} };
        const main = { label: `  of which JS thread`, metric: 'cpumain', results: {} };
        const rps = { label: `  req/s (sequential)`, metric: 'rps', results: {} };
        const tlsRow = { label: `  TLS handshakes (resumed)`, metric: 'tls', results: {} };
        const all = {};
        for (let round = 0; round < rounds; round++) {
          const order = round % 2 ? [...clients].reverse() : clients;
          for (const c of order) {
            const r = await measure({
              client: c, scenario: `tlsconn-${tag}`, mode: 'loop', inflight: 1, url, keepAlive,
              requests: n, deadlineMs: H.connSeconds * 1000, warmup: 1, warmupRounds: 20,
            });
            r.round = round + 1;
            (all[c] = all[c] || []).push(r);
          }
        }
        for (const c of clients) {
          const ok = all[c].filter((r) => !r.error);
          const best = ok.length ? ok.reduce((a, b) => (b.wallMs < a.wallMs ? b : a)) : all[c][0];
          cpu.results[c] = best; main.results[c] = best; rps.results[c] = best; tlsRow.results[c] = best;
        }
        cpuRows[tag] = cpu;
        rows.push(cpu, main, rps);
        if (!keepAlive) rows.push(tlsRow);
      }
      // derived: what a full handshake adds to a request
      const diff = { label: 'full handshake − kept-alive: CPU', metric: 'cpu', results: {} };
      for (const c of clients) {
        const a = cpuRows.full.results[c]; const b = cpuRows.keepalive.results[c];
        diff.results[c] = a && b && !a.error && !b.error
          ? { finished: true, done: 1, cpuPerReqUs: a.cpuPerReqUs - b.cpuPerReqUs }
          : { error: 'n/a' };
      }
      rows.push(diff);
      tables.httpsConn = { title: `CPU per new TLS connection: ${n} sequential requests to /fixed`, clients, rows };
    }
  } finally {
    await server.close();
  }
  return tables;
}

// 6: HTTPS over HTTP/2 against bench/h2_server.js. Each round runs every
// client at 64 in flight, then every client's cold burst; the second round
// in the reverse client order. Returns {table, bar}.
async function partH2(lib, runs, certs) {
  const H = CFG.https;
  const H2 = CFG.h2;
  const caFile = path.join(certs.dir, 'ca.pem');
  const server = await spawnH2Server({ certDir: certs.dir, leaf: H.leaf, maxSeconds: 3600, maxStreams: H2.maxStreams });
  const base = {
    h2: true,
    h2MaxStreams: H2.maxStreams,
    tls: { caFile, cycletlsVerify: H.cycletlsVerify },
    profile: H.oursProfile,
    browser: { wreq: H.wreqBrowser, impit: H.impitBrowser },
    cycletls: { ja3: H.cycletlsJa3, userAgent: H.cycletlsUserAgent, reuse: H2.cycletlsReuse },
  };
  const opts = { env: { SSL_CERT_FILE: caFile }, idleSockets: 0 };
  const measure = async (spec) => {
    const r = await runMeasured(server.statsPort, Object.assign({}, base, spec), opts);
    runs.push(r); progress(r);
    return r;
  };
  const clients = H2.clients.filter((c) => lib.exists || !c.startsWith('ours'));
  const delayUrl = server.url(`/delay/${CFG.delayMs}`);
  console.log(`h2: server 127.0.0.1:${server.port} (pid ${server.child.pid}), HTTP/2 only, MAX_CONCURRENT_STREAMS ${H2.maxStreams > 0 ? H2.maxStreams : "Node's default (none)"}, leaf ${H.leaf}, CA ${caFile}`);
  const rounds = Math.max(1, Math.min(5, H2.rounds));
  const loopRows = []; const burstRows = []; const bar = [];
  const k = H2.inflight;
  try {
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? clients : [...clients].reverse();
      const tag = rounds > 1 ? `, run ${round}` : '';
      const rps = { label: `req/s @${k} in flight${tag}`, metric: 'rps', results: {} };
      const cpu = { label: `  CPU/req`, metric: 'cpu', results: {} };
      const main = { label: `  of which JS thread`, metric: 'cpumain', results: {} };
      const peak = { label: `  peak RSS`, metric: 'peak', results: {} };
      const conns = { label: `  connections (peak streams)`, metric: 'h2conns', results: {} };
      for (const c of order) {
        const r = await measure({
          client: c, scenario: `h2-inflight-${k}`, mode: 'loop', inflight: k, url: delayUrl,
          requests: H2.requests, deadlineMs: H2.seconds * 1000, warmup: k,
        });
        r.round = round;
        for (const row of [rps, cpu, main, peak, conns]) row.results[c] = r;
      }
      loopRows.push(rps, cpu, main, peak, conns);
      const wall = { label: `${H2.burst} at once${tag}: time`, metric: 'wall', results: {} };
      const bpeak = { label: `  peak RSS`, metric: 'peak', results: {} };
      const bcpu = { label: `  CPU/req`, metric: 'cpu', results: {} };
      const bconns = { label: `  connections (peak streams)`, metric: 'h2conns', results: {} };
      for (const c of order) {
        const r = await measure({
          client: c, scenario: `h2-burst-${H2.burst}`, mode: 'burst', inflight: H2.burst, url: delayUrl,
          requests: H2.burst, deadlineMs: H2.burstSeconds * 1000, warmup: 0,
        });
        r.round = round;
        for (const row of [wall, bpeak, bcpu, bconns]) row.results[c] = r;
      }
      burstRows.push(wall, bpeak, bcpu, bconns);
      // the issue's bar: ours' burst finishes at least as fast as the fastest peer
      const good = (r) => r && !r.error && r.finished && !r.errors && !noH2(r);
      const peers = clients.filter((c) => !c.startsWith('ours') && good(wall.results[c]));
      const fastest = peers.reduce((a, c) => (!a || wall.results[c].wallMs < wall.results[a].wallMs ? c : a), null);
      for (const o of clients.filter((c) => c.startsWith('ours'))) {
        const r = wall.results[o];
        bar.push({
          round, client: o, wallMs: r && r.wallMs, ok: !!good(r), fastestPeer: fastest, peerWallMs: fastest && wall.results[fastest].wallMs,
          holds: !!(good(r) && (!fastest || r.wallMs <= wall.results[fastest].wallMs)),
        });
      }
    }
  } finally {
    await server.close();
  }
  return { table: { title: `HTTPS over HTTP/2, /delay/${CFG.delayMs}`, clients, rows: [...loopRows, ...burstRows] }, bar };
}

// Caddy with HTTP/1.1, HTTP/2 and HTTP/3 on one loopback port (TCP and
// UDP), the test certificate, every request passed to `backend` (plain
// HTTP). Resolves {port, child, url(path), close()} once Caddy answers.
async function spawnCaddy({ certDir, leaf, backend }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-caddy-'));
  const port = await new Promise((resolve) => {
    const s = require('net').createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
  fs.writeFileSync(path.join(dir, 'Caddyfile'), `{
	admin off
	auto_https off
	storage file_system ${dir}/data
	servers {
		protocols h1 h2 h3
	}
}
https://127.0.0.1:${port} {
	bind 127.0.0.1
	tls ${path.join(certDir, `${leaf}.pem`)} ${path.join(certDir, `${leaf}.key`)}
	reverse_proxy 127.0.0.1:${backend} {
		transport http {
			keepalive_idle_conns 4096
		}
	}
}
`);
  const child = spawn('caddy', ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    env: Object.assign({}, process.env, { HOME: dir, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config') }),
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const close = async () => {
    child.kill('SIGTERM');
    await new Promise((res) => { child.once('exit', res); setTimeout(res, 5000); });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) { // bounded: 10 s
    const up = await new Promise((resolve) => {
      const c = require('net').connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); });
      c.on('error', () => resolve(false));
    });
    if (up) {
      await new Promise((res) => setTimeout(res, 300)); // its UDP listener comes up with the TCP one
      return { port, child, url: (p = '/') => `https://127.0.0.1:${port}${p}`, close };
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  await close();
  throw new Error('caddy did not start');
}

// 7: HTTPS over HTTP/3: the HTTP/3 clients and ours over HTTP/2, all through
// one Caddy in front of the delayed server, at 64 in flight and in a cold
// burst. The server-side counts are Caddy's connections to the backend, so
// they are not shown.
async function partH3(lib, runs, certs) {
  const H = CFG.https;
  const H3 = CFG.h3;
  const caFile = path.join(certs.dir, 'ca.pem');
  const backend = await spawnServer({ maxSeconds: 3600 });
  const caddy = await spawnCaddy({ certDir: certs.dir, leaf: H.leaf, backend: backend.port });
  const clients = H3.clients.filter((c) => lib.exists || !c.startsWith('ours'));
  // Caddy keeps its backend connections: no waiting for them to close.
  const opts = { env: { SSL_CERT_FILE: caFile }, idleSockets: Infinity };
  const url = caddy.url(`/delay/${CFG.delayMs}`);
  console.log(`h3: Caddy 127.0.0.1:${caddy.port} (HTTP/1.1, HTTP/2, HTTP/3; pid ${caddy.child.pid}) in front of 127.0.0.1:${backend.port}, ours' profile ${H3.profile}`);
  const base = { h3: true, h2: true, tls: { caFile }, profile: H3.profile, browser: { impit: H.impitBrowser } };
  const measure = async (spec) => {
    const r = await runMeasured(backend.port, Object.assign({}, base, spec), opts);
    delete r.server; // Caddy's upstream connections, not the client's
    runs.push(r); progress(r);
    return r;
  };
  const rows = [];
  try {
    const k = H3.inflight;
    const rps = { label: `req/s @${k} in flight`, metric: 'rps', results: {} };
    const cpu = { label: `  CPU/req`, metric: 'cpu', results: {} };
    const main = { label: `  of which JS thread`, metric: 'cpumain', results: {} };
    const peak = { label: `  peak RSS`, metric: 'peak', results: {} };
    for (const c of clients) {
      const r = await measure({
        client: c, scenario: `h3-inflight-${k}`, mode: 'loop', inflight: k, url,
        requests: H3.requests, deadlineMs: H3.seconds * 1000, warmup: k,
      });
      for (const row of [rps, cpu, main, peak]) row.results[c] = r;
    }
    rows.push(rps, cpu, main, peak);
    const wall = { label: `${H3.burst} at once: time`, metric: 'wall', results: {} };
    const bpeak = { label: `  peak RSS`, metric: 'peak', results: {} };
    const bcpu = { label: `  CPU/req`, metric: 'cpu', results: {} };
    for (const c of clients) {
      const r = await measure({
        client: c, scenario: `h3-burst-${H3.burst}`, mode: 'burst', inflight: H3.burst, url,
        requests: H3.burst, deadlineMs: H3.burstSeconds * 1000, warmup: 0,
      });
      for (const row of [wall, bpeak, bcpu]) row.results[c] = r;
    }
    rows.push(wall, bpeak, bcpu);
  } finally {
    await caddy.close();
    await backend.close();
  }
  return { title: `HTTPS over HTTP/3 through Caddy, /delay/${CFG.delayMs}`, clients, rows };
}

// Text bodies of each size, over HTTPS/1.1 (bench/https_server.js) and
// HTTPS/2 (bench/h2_server.js): MB/s, CPU per request (and the JS thread's
// share of it), peak RSS. Returns {table, bar}: bar holds the issue's
// targets for ours-koffi against the best peer of each row.
async function partBody(lib, runs, certs) {
  const H = CFG.https;
  const B = CFG.body;
  const caFile = path.join(certs.dir, 'ca.pem');
  const clients = B.clients.filter((c) => lib.exists || !c.startsWith('ours'));
  const opts = { env: { SSL_CERT_FILE: caFile }, idleSockets: 0 };
  const rows = []; const bar = [];
  const good = (r) => r && !r.error && r.finished && !r.errors && !noH2(r);
  for (const proto of B.protocols) {
    const h2 = proto === 'h2';
    const server = h2
      ? await spawnH2Server({ certDir: certs.dir, leaf: H.leaf, maxSeconds: 3600, maxStreams: 0 })
      : await spawnHttpsServer({ certDir: certs.dir, leaf: H.leaf, maxSeconds: 3600 });
    const base = {
      h2, tls: { caFile, cycletlsVerify: H.cycletlsVerify }, profile: H.oursProfile,
      browser: { wreq: H.wreqBrowser, impit: H.impitBrowser },
      cycletls: { ja3: H.cycletlsJa3, userAgent: H.cycletlsUserAgent, reuse: CFG.h2.cycletlsReuse },
    };
    const name = h2 ? 'HTTPS/2' : 'HTTPS/1.1';
    console.log(`body ${name}: server 127.0.0.1:${server.port} (pid ${server.child.pid})`);
    try {
      for (const { bytes, inflight, requests } of B.sizes) {
        const size = bytes >= 1 << 20 ? `${bytes / (1 << 20)} MiB` : `${bytes / 1024} KiB`;
        const tput = { label: `${name} ${size} @${inflight}: MB/s`, metric: 'mbps', results: {} };
        const cpu = { label: `  CPU/req`, metric: 'cpu', results: {} };
        const main = { label: `  of which JS thread`, metric: 'cpumain', results: {} };
        const peak = { label: `  peak RSS`, metric: 'peak', results: {} };
        for (const c of clients) {
          const r = await runMeasured(server.statsPort, Object.assign({}, base, {
            client: c, scenario: `body-${proto}-${bytes}`, mode: 'loop', inflight, url: server.url(`/body/${bytes}`),
            // large bodies: no warm-up, so that the RSS at the start is the
            // client's own before any body (peak RSS over the body below)
            requests, deadlineMs: B.seconds * 1000, warmup: bytes >= 1 << 20 ? 0 : inflight,
          }), opts);
          r.bodyBytes = bytes;
          runs.push(r); progress(r);
          for (const row of [tput, cpu, main, peak]) row.results[c] = r;
        }
        rows.push(tput, cpu, main, peak);
        const peers = clients.filter((c) => !c.startsWith('ours') && !c.startsWith('baseline') && good(tput.results[c]));
        const best = (f, lower) => peers.reduce((a, c) => (a === null || (lower ? f(tput.results[c]) < f(tput.results[a]) : f(tput.results[c]) > f(tput.results[a])) ? c : a), null);
        const o = tput.results['ours-koffi'];
        if (good(o) && peers.length) {
          const fast = best(mbps, false); const lean = best((r) => r.cpuPerReqUs, true);
          bar.push({
            row: `${name} ${size}`, mbpsRatio: mbps(o) / mbps(tput.results[fast]), fastestPeer: fast,
            cpuRatio: o.cpuPerReqUs / tput.results[lean].cpuPerReqUs, leanestPeer: lean,
            // what the run added to the client's RSS, in body sizes (only
            // where there was no warm-up: the RSS at the start is the
            // client's own)
            peakRssOverBody: bytes >= 1 << 20 ? ((o.peakRssKB - o.rssStartKB) * 1024) / bytes : null,
          });
        }
      }
    } finally {
      await server.close();
    }
  }
  return { table: { title: 'text bodies (/body/<bytes>)', clients, rows }, bar };
}

async function main() {
  const t0 = Date.now();
  const load0 = os.loadavg();
  const lib = libInfo();
  if (!lib.exists) console.error(`library not found at ${lib.path}: skipping ours-* (set TLS_CLIENT_LIB)`);
  if (!fs.existsSync(path.join(BINDINGS, 'node_modules'))) {
    console.error('tests/bindings/node_modules missing: run `npm ci` in tests/bindings first');
    process.exit(2);
  }
  for (const p of PARTS) {
    if (!['http', 'https-load', 'https-conn', 'h2', 'body', 'h3'].includes(p)) { console.error(`BENCH_ONLY: unknown part ${p}`); process.exit(2); }
  }
  console.log(`bench: parts ${[...PARTS].join(', ')}; ${os.cpus().length} cpus, node ${process.version}, load average ${load0.map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`library: ${lib.exists ? `${lib.path} sha256 ${lib.sha256.slice(0, 16)}` : 'none'}; ours-* idle pool: ${CFG.oursIdle === 'default' ? 'the library default (no transportOptions)' : 'tuned: transportOptions maxIdleConns(PerHost) = in flight'}`);

  const runs = [];
  const tables = {};
  if (PARTS.has('http')) {
    const clients = CFG.clients.filter((c) => lib.exists || !c.startsWith('ours'));
    tables.http = { title: `plain HTTP, /delay/${CFG.delayMs} and /fixed`, clients, rows: await partHttp(clients, runs) };
  }
  let h2Bar; let bodyBar;
  if (PARTS.has('https-load') || PARTS.has('https-conn') || PARTS.has('h2') || PARTS.has('body') || PARTS.has('h3')) {
    const certs = makeCerts();
    try {
      if (PARTS.has('https-load') || PARTS.has('https-conn')) Object.assign(tables, await partHttps(PARTS, lib, runs, certs));
      if (PARTS.has('h2')) {
        const { table: t, bar } = await partH2(lib, runs, certs);
        tables.h2 = t;
        h2Bar = bar;
      }
      if (PARTS.has('body')) {
        const { table: t, bar } = await partBody(lib, runs, certs);
        tables.body = t;
        bodyBar = bar;
      }
      if (PARTS.has('h3')) tables.h3 = await partH3(lib, runs, certs);
    } finally {
      certs.remove();
    }
  }

  const texts = {};
  for (const [k, t] of Object.entries(tables)) texts[k] = `## ${t.title}\n\n${table(t.rows, t.clients)}`;
  const text = Object.values(texts).join('\n\n');
  console.log('\n' + text);
  console.log('\nratios are ours ÷ peer: for req/s higher is better for ours; for time, RSS and CPU lower is better.');
  console.log('"(x/y in bound)": the run hit its time bound after x of y requests; its req/s is x over the bound.');
  console.log('"connections opened": TCP connections the server accepted during the run, warm-up included.');
  if (tables.httpsLoad || tables.httpsConn) {
    console.log('"TLS handshakes (resumed)": handshakes the server completed during the run, warm-up included, and how many resumed a session.');
  }
  if (tables.h2) {
    console.log('"connections (peak streams)": TCP connections the h2 server accepted during the run, warm-up included, and its peak of streams in flight.');
    for (const b of h2Bar) {
      console.log(`h2 bar, run ${b.round}: ${b.client} ${b.ok ? `${fmt.int(b.wallMs)} ms` : 'did not finish cleanly'} for ${CFG.h2.burst} at once; fastest peer ${b.fastestPeer ? `${b.fastestPeer} ${fmt.int(b.peerWallMs)} ms` : 'none'}: ${b.holds ? 'holds' : 'does NOT hold'}`);
    }
  }

  for (const b of bodyBar || []) {
    console.log(`body bar, ${b.row}: ours-koffi MB/s ${b.mbpsRatio.toFixed(2)}x ${b.fastestPeer}, CPU/req ${b.cpuRatio.toFixed(2)}x ${b.leanestPeer}${b.peakRssOverBody === null ? '' : `, peak RSS grew by ${b.peakRssOverBody.toFixed(1)}x the body`}`);
  }

  const out = {
    date: new Date().toISOString(),
    gitRev: gitRev(),
    host: { cpus: os.cpus().length, cpuModel: os.cpus()[0] && os.cpus()[0].model, memGB: +(os.totalmem() / 2 ** 30).toFixed(1), node: process.version, platform: `${process.platform}-${process.arch}` },
    library: lib,
    config: CFG,
    parts: [...PARTS],
    durationSec: Math.round((Date.now() - t0) / 1000),
    // other processes on the machine: 1/5/15-minute load averages at start and end
    loadavg: { start: load0.map((x) => +x.toFixed(2)), end: os.loadavg().map((x) => +x.toFixed(2)) },
    table: text,
    tables: texts,
    h2Bar,
    bodyBar,
    runs,
  };
  fs.mkdirSync(path.dirname(CFG.out), { recursive: true });
  fs.writeFileSync(CFG.out, JSON.stringify(out, null, 2) + '\n');
  console.log(`\nwrote ${path.relative(process.cwd(), CFG.out) || CFG.out} (${out.durationSec} s; load average at the end ${out.loadavg.end.join(' ')})`);
  // its charts next to it; a drawing failure must not cost the run's numbers
  try {
    console.log(`wrote ${path.relative(process.cwd(), require('./render.js').renderFile(CFG.out))}`);
  } catch (e) {
    console.error(`bench/render.js: ${e.message}`);
  }
  const bad = runs.filter((r) => r.error);
  if (bad.length) { console.error(`${bad.length} runs failed`); process.exitCode = 1; }
}

main().catch((e) => { console.error(e); process.exit(1); });

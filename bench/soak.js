'use strict';
// The soak test (not CI; bench/README.md "Soak"): the library through
// koffi's async trio, at its default settings, one session, against
// bench/soak_server.js on loopback.
//   1. SOAK_REQUESTS (1,000,000) keep-alive requests, SOAK_IN_FLIGHT (64)
//      at a time;
//   2. SOAK_FAULTS (100,000) requests that each meet a fault (reset,
//      stall, truncated body, bad gzip, bad chunk), SOAK_FAULT_IN_FLIGHT
//      (256) at a time, each with a 300 ms timeout;
// sampling the process's RSS every 10,000 answers. Passes when every id
// requestAsync gave completed exactly once, every answer is the expected
// one (200 for /ok, status 0 with an errorCode for a fault), and RSS after
// the warm-up stays within 10% of its first sample (each phase judged on
// its own). Writes bench/results/soak.json.
//
//   node bench/soak.js            (TLS_CLIENT_LIB, else build/libtls-client.so)
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { loadLib, AsyncClient } = require('../tests/bindings/ffi');

const REQUESTS = Number(process.env.SOAK_REQUESTS || 1000000);
const IN_FLIGHT = Number(process.env.SOAK_IN_FLIGHT || 64);
const FAULTS = Number(process.env.SOAK_FAULTS || 100000);
const FAULT_IN_FLIGHT = Number(process.env.SOAK_FAULT_IN_FLIGHT || 256);
const SAMPLE_EVERY = 10000;
const FAULT_KINDS = ['reset', 'stall', 'truncated', 'badgzip', 'badchunk'];

function startServer() {
  const child = spawn(process.execPath, [path.join(__dirname, 'soak_server.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve({ child, port: JSON.parse(buf.slice(0, nl)).port });
    });
    child.on('exit', (code) => reject(new Error('soak server exited: ' + code)));
    setTimeout(() => reject(new Error('soak server did not start in 30 s')), 30000).unref();
  });
}

// Runs `total` requests, `inFlight` at a time; `make(i)` gives the input,
// `check(i, r)` says whether the answer is right. Samples RSS every
// SAMPLE_EVERY answers.
async function phase(client, name, total, inFlight, make, check) {
  const samples = [];
  let started = 0, done = 0, wrong = 0, firstWrong = null;
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  await new Promise((resolve) => {
    const next = () => {
      if (started >= total) return;
      const i = started++;
      client.request(make(i)).then((r) => {
        if (!check(i, r)) {
          wrong++;
          if (!firstWrong) firstWrong = { i, status: r.status, errorCode: r.errorCode, body: String(r.body).slice(0, 200) };
        }
        done++;
        if (done % SAMPLE_EVERY === 0) {
          samples.push({ answers: done, rssMB: +(process.memoryUsage().rss / 1048576).toFixed(1) });
          process.stdout.write(`\r${name}: ${done}/${total}, RSS ${samples[samples.length - 1].rssMB} MB   `);
        }
        if (done === total) resolve(); else next();
      });
    };
    for (let k = 0; k < inFlight; k++) next();
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write('\n');
  // Flat: after the first tenth (warm-up: pools, caches, V8's heap growing
  // into its steady size), every sample within 10% of the first one kept.
  const kept = samples.slice(Math.max(1, Math.floor(samples.length / 10)));
  const base = kept.length ? kept[0].rssMB : 0;
  const maxRss = kept.reduce((m, s) => Math.max(m, s.rssMB), 0);
  const minRss = kept.reduce((m, s) => Math.min(m, s.rssMB), Infinity);
  const flat = kept.length === 0 || (maxRss <= base * 1.1 && minRss >= base * 0.9);
  return {
    name, total, inFlight, seconds: +seconds.toFixed(1), perSecond: Math.round(total / seconds),
    cpuUsPerRequest: Math.round((cpu.user + cpu.system) / total), wrong, firstWrong,
    rss: { baseMB: base, minMB: minRss === Infinity ? 0 : minRss, maxMB: maxRss, flat }, samples,
  };
}

async function main() {
  const lib = loadLib(process.env.TLS_CLIENT_LIB || path.join(__dirname, '..', 'build', 'libtls-client.so'));
  const { child, port } = await startServer();
  const client = new AsyncClient(lib);
  const origin = `http://127.0.0.1:${port}`;
  const base = { requestMethod: 'GET', sessionId: 'soak', tlsClientIdentifier: 'chrome_133' };

  const keepAlive = await phase(client, 'keep-alive', REQUESTS, IN_FLIGHT,
    () => ({ ...base, requestUrl: origin + '/ok', timeoutSeconds: 30 }),
    (i, r) => r.status === 200 && r.body === 'x'.repeat(64));
  const faultCounts = {};
  const faults = await phase(client, 'faults', FAULTS, FAULT_IN_FLIGHT,
    // A session of its own: a session keeps the timeout of the request
    // that made it, as upstream's does.
    (i) => ({ ...base, sessionId: 'soak-faults', requestUrl: origin + '/' + FAULT_KINDS[i % FAULT_KINDS.length],
      timeoutMilliseconds: 300 }),
    (i, r) => {
      const key = FAULT_KINDS[i % FAULT_KINDS.length] + ':' + (r.errorCode || r.status);
      faultCounts[key] = (faultCounts[key] || 0) + 1;
      return r.status === 0 && typeof r.errorCode === 'string' && r.body.length > 0;
    });
  // After the faults the session still serves.
  const after = await client.request({ ...base, requestUrl: origin + '/ok', timeoutSeconds: 30 });

  const exactlyOnce = client.pending.size === 0 && client.stats.unknownIds === 0;
  const pass = exactlyOnce && keepAlive.wrong === 0 && faults.wrong === 0 && keepAlive.rss.flat &&
    faults.rss.flat && after.status === 200;
  const result = {
    date: new Date().toISOString(), host: { cpus: os.cpus().length, model: os.cpus()[0].model, loadavg: os.loadavg() },
    library: lib.path, node: process.version, pass, exactlyOnce,
    unknownIds: client.stats.unknownIds, stillPending: client.pending.size, afterFaults: after.status,
    keepAlive, faults: { ...faults, byKindAndCode: faultCounts },
  };
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', 'soak.json'), JSON.stringify(result, null, 1) + '\n');
  for (const p of [keepAlive, faults]) {
    console.log(`${p.name}: ${p.total} requests, ${p.inFlight} in flight, ${p.seconds} s (${p.perSecond}/s), ` +
      `${p.cpuUsPerRequest} µs CPU/request, wrong ${p.wrong}, RSS ${p.rss.baseMB} → ${p.rss.minMB}..${p.rss.maxMB} MB ` +
      `(${p.rss.flat ? 'flat' : 'NOT flat'})`);
  }
  console.log('faults by kind and answer:', JSON.stringify(faultCounts));
  console.log(`every id exactly once: ${exactlyOnce}; after the faults: ${after.status}; ${pass ? 'PASS' : 'FAIL'}`);
  lib.destroyAll();
  child.stdin.end();
  process.exit(pass ? 0 : 1);
}

main().catch((e) => { console.error(e); process.exit(2); });

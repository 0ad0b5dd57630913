'use strict';
// Child process of koffi_async.test.js. Switches setNotify between a callback
// and NULL from the JS thread while responses are completing, so that
// setNotify(NULL) often runs while the library's notify thread is blocked in
// koffi waiting for the JS thread. A library whose setNotify(NULL) waits for a
// running callback deadlocks here; the parent kills this process after 30 s.
//
// Checks, each round: after setNotify(NULL) and a short grace (a call koffi
// had already queued, or that the notify thread had already decided to make,
// may still run on the JS thread), two further bursts of completions, the
// queue collected between them, cause at most that one late callback. At
// the end every request has come back exactly once.
// Exit 0 on success.
const { koffi, NotifyCb, loadLib } = require('./ffi');

const lib = loadLib();
const base = process.env.RACE_URL; // http://127.0.0.1:port/delay/
const ROUNDS = parseInt(process.env.RACE_ROUNDS || '12', 10);
const PER = parseInt(process.env.RACE_PER || '200', 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tick = () => new Promise((r) => setImmediate(r));
const hardStop = setTimeout(() => { console.error('race: 25 s bound hit'); process.exit(3); }, 25000);

let calls = 0;
let armed = false;
const seen = new Map();
function drain() {
  for (let i = 0; i < 1000; i++) {
    const arr = JSON.parse(lib.waitNext(0));
    if (!arr.length) return;
    for (const r of arr) seen.set(r.id, (seen.get(r.id) || 0) + 1);
  }
}
const cb = koffi.register(() => {
  calls++;
  if (!armed) { armed = true; setImmediate(() => { armed = false; drain(); }); }
}, koffi.pointer(NotifyCb));

const ids = [];
function burst(tag, n) {
  for (let i = 0; i < n; i++) {
    const o = JSON.parse(lib.requestAsync(JSON.stringify({
      requestUrl: `${base}${i % 30}/${tag}-${i}`, requestMethod: 'GET', tlsClientIdentifier: 'chrome_131',
      sessionId: 'race', timeoutMilliseconds: 15000 })));
    if (!o.id || o.status !== undefined) { console.error('refused', o); process.exit(2); }
    ids.push(o.id);
  }
}

(async () => {
  for (let round = 0; round < ROUNDS; round++) {
    lib.setNotify(cb);
    burst(`on${round}`, PER);
    await sleep(round % 6 * 4); // switch off at varying points of the completion burst
    // keep the JS thread busy while completions arrive, so that the notify
    // thread is (very likely) blocked in koffi waiting for the JS thread when
    // the JS thread calls setNotify(NULL)
    const spinEnd = Date.now() + 15;
    while (Date.now() < spinEnd) { /* spin */ }
    lib.setNotify(null);
    for (let k = 0; k < 5; k++) await tick();
    await sleep(100);
    const frozen = calls;
    // Two bursts, the queue collected between them (a waitNext re-arms the
    // notification): were setNotify(NULL) ignored, each would bring a call.
    // One call the notify thread had already decided on may still come late
    // (it makes one at a time), and no more.
    for (let b = 0; b < 2; b++) {
      burst(`off${round}-${b}`, 50);
      await sleep(150);
      for (let k = 0; k < 3; k++) await tick();
      drain();
    }
    if (calls - frozen > 1) { console.error(`round ${round}: ${calls - frozen} callbacks after setNotify(NULL)`); process.exit(1); }
  }
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline && seen.size < ids.length) { drain(); await sleep(5); }
  const idset = new Set(ids);
  const missing = ids.filter((id) => !seen.has(id)).length;
  const twice = [...seen.values()].filter((n) => n !== 1).length;
  const unknown = [...seen.keys()].filter((id) => !idset.has(id)).length;
  console.log(`race: ${ids.length} requests, ${calls} callbacks, missing ${missing}, repeated ${twice}, unknown ${unknown}`);
  clearTimeout(hardStop);
  process.exit(missing || twice || unknown ? 1 : 0);
})();

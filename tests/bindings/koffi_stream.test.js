'use strict';
// Streaming on Node's main thread through koffi, never blocking it:
// requestStream (which waits for the headers) runs on one of koffi's worker
// threads (.async), and the body is polled with readStream timeoutMs 0 from
// timers, while an interval timer proves the event loop keeps turning.
const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('http');

const { libPath } = require('./common');
const { koffi, NotifyCb } = require('./ffi');

const lib = koffi.load(libPath());
const requestStream = lib.func('requestStream', 'str', ['str']);
const readStream = lib.func('readStream', 'str', ['str']);
const cancelStream = lib.func('cancelStream', 'str', ['str']);
const freeMemory = lib.func('freeMemory', 'void', ['str']);
const waitNext = lib.func('waitNext', 'str', ['int']);
const setNotify = lib.func('setNotify', 'void', [koffi.pointer(NotifyCb)]);

function owned(fn, arg) {
  const out = JSON.parse(fn(JSON.stringify(arg)));
  freeMemory(out.id);
  return out;
}

let server;
let base;
before(async () => {
  server = http.createServer((req, res) => {
    const n = Math.min(200, Number(new URL(req.url, 'http://x').searchParams.get('n') || 10));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const tick = () => {
      if (i >= n) return res.end();
      res.write(`data: ${i++}\n\n`);
      t = setTimeout(tick, 50);
    };
    let t = setTimeout(tick, 0);
    res.on('close', () => clearTimeout(t));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => server.close(r)));

function startStream(n, extra = {}) {
  const input = { tlsClientIdentifier: 'chrome_133', requestUrl: `${base}/sse?n=${n}`, requestMethod: 'GET',
    timeoutMilliseconds: -1, ...extra };
  return new Promise((resolve, reject) => {
    requestStream.async(JSON.stringify(input), (err, out) => {
      if (err) return reject(err);
      const r = JSON.parse(out);
      freeMemory(r.id);
      resolve(r);
    });
  });
}

describe('koffi streaming on the main thread', () => {
  it('reads a server-sent event stream with polls while timers keep firing', async () => {
    let ticks = 0;
    let last = Date.now();
    let maxGap = 0;
    const timer = setInterval(() => {
      const now = Date.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 10);
    try {
      const t0 = Date.now();
      const start = await startStream(20);
      assert.equal(start.status, 200, start.body);
      let text = '';
      let polls = 0;
      for (;;) {
        if (Date.now() - t0 > 20000) assert.fail('stream did not end in 20 s');
        const r = owned(readStream, { streamId: start.streamId, timeoutMs: 0 });
        polls++;
        assert.equal(r.error, undefined);
        if (r.eof) break;
        if (r.timeout) {
          await new Promise((res) => setTimeout(res, 5));
          continue;
        }
        text += Buffer.from(r.chunk, 'base64').toString();
      }
      const elapsed = Date.now() - t0;
      let want = '';
      for (let i = 0; i < 20; i++) want += `data: ${i}\n\n`;
      assert.equal(text, want);
      assert.ok(elapsed >= 900, `20 events 50 ms apart took ${elapsed} ms`);
      assert.ok(polls > 20, 'data came in pieces');
      // The loop ran throughout: about one tick per 10 ms, none far apart.
      assert.ok(ticks >= elapsed / 10 / 3, `${ticks} ticks in ${elapsed} ms`);
      assert.ok(maxGap < 250, `the event loop stalled for ${maxGap} ms`);
    } finally {
      clearInterval(timer);
    }
  });

  it('with notifyOnData, reads only when told, so no read ever waits or comes back empty', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    let text = '';
    let emptyPolls = 0;
    let events = 0;
    let done;
    const finished = new Promise((r) => { done = r; });
    let streamId = null;
    const early = [];
    // The callback runs on the JavaScript thread (koffi) and never blocks:
    // waitNext(0), then one readStream(0) per event.
    const onEvent = (e) => {
      if (streamId === null) return early.push(e);
      assert.deepEqual(e, { event: 'readable', streamId });
      events++;
      const r = owned(readStream, { streamId, timeoutMs: 0 });
      assert.equal(r.error, undefined);
      if (r.timeout) return emptyPolls++;
      if (r.eof) return done();
      text += Buffer.from(r.chunk, 'base64').toString();
    };
    const cb = koffi.register(() => setImmediate(() => {
      for (const e of JSON.parse(waitNext(0))) onEvent(e);
    }), koffi.pointer(NotifyCb));
    setNotify(cb);
    try {
      const start = await startStream(20, { notifyOnData: true });
      assert.equal(start.status, 200);
      streamId = start.streamId;
      for (const e of early.splice(0)) onEvent(e);
      // An event queued before the callback was set is collected too.
      for (const e of JSON.parse(waitNext(0))) onEvent(e);
      await Promise.race([finished, new Promise((_, rej) => setTimeout(() => rej(new Error('no eof in 20 s')), 20000))]);
    } finally {
      clearInterval(timer);
      setNotify(null);
      await new Promise((r) => setImmediate(r));
      koffi.unregister(cb);
    }
    let want = '';
    for (let i = 0; i < 20; i++) want += `data: ${i}\n\n`;
    assert.equal(text, want);
    assert.ok(events >= 2, `${events} events`);
    assert.equal(emptyPolls, 0, 'an event came with nothing to read');
    assert.ok(ticks > 20, `the event loop turned ${ticks} times`);
  });

  it('cancels a stream from the main thread', async () => {
    const start = await startStream(200);
    assert.equal(start.status, 200);
    assert.equal(owned(cancelStream, { streamId: start.streamId }).success, true);
    const r = owned(readStream, { streamId: start.streamId, timeoutMs: 0 });
    assert.equal(r.error, `unknown streamId: ${start.streamId}`);
  });
});

'use strict';
// WebSocket through koffi as a Node binding of the new ABI would use it,
// against the `ws` package's server in this process: wsConnect and wsRead
// (which block) on koffi's worker threads (.async), wsWrite and wsClose on
// the main thread, while an interval timer proves the event loop turns.
const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('http');
const { WebSocketServer } = require('ws');

const { libPath } = require('./common');
const { koffi, NotifyCb } = require('./ffi');

const lib = koffi.load(libPath());
const wsConnect = lib.func('wsConnect', 'str', ['str']);
const wsRead = lib.func('wsRead', 'str', ['str']);
const wsWrite = lib.func('wsWrite', 'str', ['str']);
const wsClose = lib.func('wsClose', 'str', ['str']);
const freeMemory = lib.func('freeMemory', 'void', ['str']);
const waitNext = lib.func('waitNext', 'str', ['int']);
const setNotify = lib.func('setNotify', 'void', [koffi.pointer(NotifyCb)]);

function owned(fn, arg) {
  const out = JSON.parse(fn(JSON.stringify(arg)));
  freeMemory(out.id);
  return out;
}

function ownedAsync(fn, arg) {
  return new Promise((resolve, reject) => {
    fn.async(JSON.stringify(arg), (err, out) => {
      if (err) return reject(err);
      const r = JSON.parse(out);
      freeMemory(r.id);
      resolve(r);
    });
  });
}

let server;
let wss;
let base;
const seenUserAgents = [];
before(async () => {
  server = http.createServer();
  wss = new WebSocketServer({ server });
  wss.on('connection', (ws, req) => {
    seenUserAgents.push(req.headers['user-agent']);
    ws.on('message', (data, isBinary) => {
      // Three answers per message, a little apart, so reads wait for some.
      for (let i = 0; i < 3; i++) setTimeout(() => ws.send(isBinary ? data : `${data}#${i}`, { binary: isBinary }), 20 * i);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `ws://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((r) => { wss.close(); server.close(r); }));

describe('koffi WebSocket', () => {
  it('echoes text and binary while the event loop keeps turning', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const c = await ownedAsync(wsConnect, { url: `${base}/chat`, tlsClientIdentifier: 'chrome_133',
      headers: { 'User-Agent': 'koffi-test' } });
    assert.equal(c.status, 101, JSON.stringify(c));
    const id = c.connectionId;
    assert.equal(owned(wsWrite, { connectionId: id, messageType: 1, data: 'hi' }).success, true);
    for (let i = 0; i < 3; i++) {
      const m = await ownedAsync(wsRead, { connectionId: id, timeoutMilliseconds: 5000 });
      assert.equal(m.messageType, 1);
      assert.equal(m.data, `hi#${i}`);
    }
    const bin = Buffer.from([0, 1, 2, 250, 255]);
    owned(wsWrite, { connectionId: id, messageType: 2, data: bin.toString('base64') });
    const m = await ownedAsync(wsRead, { connectionId: id, timeoutMilliseconds: 5000 });
    assert.equal(m.messageType, 2);
    assert.deepEqual(Buffer.from(m.data, 'base64'), bin);
    assert.equal(owned(wsClose, { connectionId: id }).success, true);
    clearInterval(timer);
    assert.ok(ticks > 3, `the event loop turned ${ticks} times`);
    assert.equal(seenUserAgents.at(-1), 'koffi-test');
  });

  it('with notifyOnData, reads on the main thread only when told, never waiting', async () => {
    const got = [];
    let connectionId = null;
    const early = [];
    let done;
    const finished = new Promise((r) => { done = r; });
    const onEvent = (e) => {
      if (connectionId === null) return early.push(e);
      assert.deepEqual(e, { event: 'readable', connectionId });
      // 1 ms: a read that had to wait for its message would time out.
      const m = owned(wsRead, { connectionId, timeoutMilliseconds: 1 });
      assert.equal(m.body, undefined, `a read after an event failed: ${m.body}`);
      got.push(m.data);
      if (got.length === 6) done();
    };
    const cb = koffi.register(() => setImmediate(() => {
      for (const e of JSON.parse(waitNext(0))) onEvent(e);
    }), koffi.pointer(NotifyCb));
    setNotify(cb);
    try {
      const c = await ownedAsync(wsConnect, { url: `${base}/chat`, tlsClientIdentifier: 'chrome_133', notifyOnData: true });
      assert.equal(c.status, 101, JSON.stringify(c));
      connectionId = c.connectionId;
      for (const e of early.splice(0)) onEvent(e);
      owned(wsWrite, { connectionId, messageType: 1, data: 'a' });
      owned(wsWrite, { connectionId, messageType: 1, data: 'b' });
      await Promise.race([finished, new Promise((_, rej) => setTimeout(() => rej(new Error(`only ${got.length} messages in 10 s`)), 10000))]);
      assert.equal(owned(wsClose, { connectionId }).success, true);
    } finally {
      setNotify(null);
      await new Promise((r) => setImmediate(r));
      koffi.unregister(cb);
    }
    assert.deepEqual(got.slice().sort(), ['a#0', 'a#1', 'a#2', 'b#0', 'b#1', 'b#2']);
    assert.equal(waitNext(200), '[]', 'an event after the last message');
  });

  it('answers bad input in the normal shape', () => {
    const r = owned(wsRead, { connectionId: 'missing' });
    assert.equal(r.status, 0);
    assert.equal(r.body, 'no websocket connection found for connectionId: missing');
    const bad = owned(wsConnect, { url: 'http://127.0.0.1:1/' });
    assert.equal(bad.body, 'failed to connect websocket: malformed ws or wss URL');
  });
});

'use strict';
// koffi declarations of the library's ABI (include/tls_client.h), and a small
// promise client over the async trio requestAsync / setNotify / waitNext.
// Shared by koffi_async.test.js and bench/run.js.
const koffi = require('koffi');
const { libPath } = require('./common');

const NotifyCb = koffi.proto('void TlsClientNotify(int pending)');

function loadLib(p = libPath()) {
  const lib = koffi.load(p);
  return {
    path: p,
    request: lib.func('request', 'str', ['str']),
    freeMemory: lib.func('freeMemory', 'void', ['str']),
    destroySession: lib.func('destroySession', 'str', ['str']),
    destroyAll: lib.func('destroyAll', 'str', []),
    getCookiesFromSession: lib.func('getCookiesFromSession', 'str', ['str']),
    addCookiesToSession: lib.func('addCookiesToSession', 'str', ['str']),
    requestAsync: lib.func('requestAsync', 'str', ['str']),
    waitNext: lib.func('waitNext', 'str', ['int']),
    setNotify: lib.func('setNotify', 'void', [koffi.pointer(NotifyCb)]),
  };
}

/**
 * Promise client over requestAsync/waitNext/setNotify.
 * The notify callback (run by koffi on the JS thread) never waits: it only
 * schedules a drain with setImmediate; the drain calls waitNext(0) until it
 * returns "[]" (bounded by maxBatchesPerDrain). The JS thread never calls
 * waitNext(-1) or waitNext(>0).
 */
class AsyncClient {
  constructor(lib, opts = {}) {
    this.lib = lib;
    this.pending = new Map(); // request id -> {resolve, reject}
    this.stats = { notifies: 0, drains: 0, batches: 0, responses: 0, maxBatch: 0, unknownIds: 0, badPending: 0, badPendingValues: [] };
    this.unknown = [];
    this.maxBatchesPerDrain = opts.maxBatchesPerDrain || 1000;
    this._drainScheduled = false;
    this._closed = false;
    // koffi's callback relay does not keep the event loop alive: hold a
    // timer while requests are pending, or Node may exit with them unfinished
    this._keepAlive = null;
    this._cb = koffi.register((pendingCount) => {
      this.stats.notifies++;
      if (!(pendingCount >= 1)) {
        this.stats.badPending++;
        if (this.stats.badPendingValues.length < 5) this.stats.badPendingValues.push(pendingCount);
      }
      this._scheduleDrain();
    }, koffi.pointer(NotifyCb));
    lib.setNotify(this._cb);
  }

  _scheduleDrain() {
    if (this._drainScheduled || this._closed) return;
    this._drainScheduled = true;
    setImmediate(() => { this._drainScheduled = false; this.drain(); });
  }

  /** Collects every finished response now waiting. Returns how many. */
  drain() {
    this.stats.drains++;
    let n = 0;
    for (let b = 0; b < this.maxBatchesPerDrain; b++) {
      const s = this.lib.waitNext(0);
      if (s === '[]') break;
      const arr = JSON.parse(s);
      if (arr.length === 0) break;
      this.stats.batches++;
      if (arr.length > this.stats.maxBatch) this.stats.maxBatch = arr.length;
      for (const r of arr) {
        n++;
        this.stats.responses++;
        const p = this.pending.get(r.id);
        if (!p) { this.stats.unknownIds++; this.unknown.push(r); continue; }
        this.pending.delete(r.id);
        p.resolve(r);
      }
    }
    if (this.pending.size === 0 && this._keepAlive) { clearInterval(this._keepAlive); this._keepAlive = null; }
    return n;
  }

  /** Starts a request; resolves to its Response. Bad input resolves at once
   * to the status-0 Response requestAsync returned. */
  request(input) {
    const s = this.lib.requestAsync(typeof input === 'string' ? input : JSON.stringify(input));
    const o = JSON.parse(s);
    if (o.status !== undefined) return Promise.resolve(o); // refused: error Response, nothing queued
    this._hold();
    return new Promise((resolve, reject) => this.pending.set(o.id, { resolve, reject, id: o.id }));
  }

  /** Starts a request and returns its id synchronously (or the error Response). */
  start(input, onDone) {
    const s = this.lib.requestAsync(typeof input === 'string' ? input : JSON.stringify(input));
    const o = JSON.parse(s);
    if (o.status !== undefined) return { error: o };
    this._hold();
    this.pending.set(o.id, { resolve: onDone, reject: () => {}, id: o.id });
    return { id: o.id };
  }

  _hold() {
    if (!this._keepAlive) this._keepAlive = setInterval(() => {}, 1 << 30);
  }

  close() {
    if (this._keepAlive) { clearInterval(this._keepAlive); this._keepAlive = null; }
    if (this._closed) return;
    this._closed = true;
    this.lib.setNotify(null);
    // koffi may still have a call queued for the JS thread; unregister later
    const cb = this._cb;
    setTimeout(() => { try { koffi.unregister(cb); } catch { /* ignore */ } }, 200).unref();
  }
}

module.exports = { koffi, NotifyCb, loadLib, AsyncClient };

'use strict';
// node-tls-client 2.1.0, unchanged, driving our library (node --test).
// The package loads os.tmpdir()/tls-client-x64.so, so the library is copied
// into a fresh folder and TMPDIR is pointed there before the package loads.
const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');

const { prepareNodeTlsClient, withTimeout } = require('./common');
const { startServer } = require('./servers');

const libDir = prepareNodeTlsClient();
const tls = require('node-tls-client'); // after TMPDIR is set

const T = 20000; // bound on any single awaited call

function echo(res) {
  assert.equal(res.status, 200, `status ${res.status}, body ${String(res.body).slice(0, 300)}`);
  return JSON.parse(res.body);
}
const lowerNames = (pairs) => pairs.map(([n]) => n.toLowerCase());
const headerValue = (pairs, name) => {
  const p = pairs.find(([n]) => n.toLowerCase() === name.toLowerCase());
  return p ? p[1] : undefined;
};

describe('node-tls-client 2.1.0 on our library', { timeout: 120000 }, () => {
  let srv;

  before(async () => {
    srv = await startServer();
    await withTimeout(tls.initTLS(), T, 'initTLS');
  });

  after(async () => {
    if (srv) await srv.close();
    // Windows does not delete a DLL a process has loaded: the runner
    // removes the folder once this process has exited.
    if (process.platform !== 'win32') fs.rmSync(libDir, { recursive: true, force: true });
  });

  it('GET: status 200, method and path seen by the server, target, protocol headers', async () => {
    const s = new tls.Session();
    const res = await withTimeout(s.get(srv.url('/echo?x=1')), T);
    const e = echo(res);
    assert.equal(e.method, 'GET');
    assert.equal(e.path, '/echo?x=1');
    assert.equal(res.ok, true);
    assert.equal(res.url, srv.url('/echo?x=1'));
    // default headers of node-tls-client reach the server
    assert.equal(headerValue(e.headers, 'user-agent'), 'tls-client/2.1.0');
    assert.ok(res.headers && Array.isArray(res.headers['Content-Type']), `headers: ${JSON.stringify(res.headers)}`);
    assert.equal(res.headers['Content-Type'][0], 'application/json');
    await withTimeout(s.close(), T);
  });

  it('POST: body echoed byte for byte (UTF-8)', async () => {
    const s = new tls.Session();
    const body = 'hello wörld ☃ ' + 'x'.repeat(5000);
    const res = await withTimeout(s.post(srv.url('/echo'), {
      body,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'User-Agent': 'ntc-test' },
    }), T);
    const e = echo(res);
    assert.equal(e.method, 'POST');
    assert.equal(e.body, body);
    assert.equal(e.bodyLength, Buffer.byteLength(body));
    assert.equal(headerValue(e.headers, 'content-length'), String(Buffer.byteLength(body)));
    const j = await withTimeout(s.post(srv.url('/echo'), { body: JSON.stringify({ a: [1, 2, 3] }), headers: { 'Content-Type': 'application/json' } }), T);
    assert.deepEqual(JSON.parse(echo(j).body), { a: [1, 2, 3] });
    const put = echo(await withTimeout(s.put(srv.url('/echo'), { body: 'p' }), T));
    assert.equal(put.method, 'PUT');
    assert.equal(put.body, 'p');
    const del = echo(await withTimeout(s.delete(srv.url('/echo')), T));
    assert.equal(del.method, 'DELETE');
    await withTimeout(s.close(), T);
  });

  it('custom headers arrive with their values and in headerOrder', async () => {
    const s = new tls.Session();
    const headers = {
      'Accept': 'text/html',
      'X-Zeta': 'z',
      'User-Agent': 'order-test/1',
      'X-Alpha': 'a',
      'Accept-Language': 'de-DE',
    };
    const order = ['x-zeta', 'user-agent', 'accept-language', 'x-alpha', 'accept'];
    const e = echo(await withTimeout(s.get(srv.url('/echo'), { headers, headerOrder: order }), T));
    for (const [k, v] of Object.entries(headers)) assert.equal(headerValue(e.headers, k), v, `header ${k}`);
    const seen = lowerNames(e.headers).filter((n) => order.includes(n));
    assert.deepEqual(seen, order, `raw order at server: ${JSON.stringify(e.headers)}`);

    // a different order on the same session is honoured too
    const order2 = [...order].reverse();
    const e2 = echo(await withTimeout(s.get(srv.url('/echo'), { headers, headerOrder: order2 }), T));
    assert.deepEqual(lowerNames(e2.headers).filter((n) => order2.includes(n)), order2);
    await withTimeout(s.close(), T);
  });

  it('cookies set by the server show in response.cookies and are sent back in the same session only', async () => {
    const s = new tls.Session();
    const r1 = await withTimeout(s.get(srv.url('/set-cookie?sa=1&sb=two')), T);
    assert.equal(r1.status, 200);
    assert.equal(r1.cookies.sa, '1', `response.cookies: ${JSON.stringify(r1.cookies)}`);
    assert.equal(r1.cookies.sb, 'two');
    assert.ok(r1.headers['Set-Cookie'] && r1.headers['Set-Cookie'].length === 2, `Set-Cookie: ${JSON.stringify(r1.headers)}`);

    const r2 = JSON.parse((await withTimeout(s.get(srv.url('/cookies')), T)).body);
    assert.equal(r2.cookies.sa, '1', `server saw Cookie: ${r2.cookie}`);
    assert.equal(r2.cookies.sb, 'two');

    // cookies given per request (node-tls-client sends them as requestCookies
    // with name and value only: no domain, path or expires)
    const r3 = JSON.parse((await withTimeout(s.get(srv.url('/cookies'), { cookies: { oc: 'given' } }), T)).body);
    assert.equal(r3.cookies.oc, 'given', `server saw Cookie: ${r3.cookie}`);
    assert.equal(r3.cookies.sa, '1');

    // another session has its own jar
    const other = new tls.Session();
    const r4 = JSON.parse((await withTimeout(other.get(srv.url('/cookies')), T)).body);
    assert.equal(r4.cookies.sa, undefined, `other session sent: ${r4.cookie}`);
    await withTimeout(other.close(), T);

    // after close() the session's jar is gone
    const closed = await withTimeout(s.close(), T);
    assert.equal(JSON.parse(closed).success, true, `destroySession returned ${closed}`);
    const r5 = JSON.parse((await withTimeout(s.get(srv.url('/cookies')), T)).body);
    assert.equal(r5.cookies.sa, undefined, `after close the server saw: ${r5.cookie}`);
    await withTimeout(s.close(), T);
  });

  it('redirects: not followed by default, followed with followRedirects', async () => {
    const s = new tls.Session();
    const r1 = await withTimeout(s.get(srv.url('/redirect/3')), T);
    assert.equal(r1.status, 302);
    assert.equal(r1.headers.Location[0], '/redirect/2');
    const r2 = await withTimeout(s.get(srv.url('/redirect/3'), { followRedirects: true }), T);
    assert.equal(echo(r2).path, '/redirect/0');
    assert.equal(r2.url, srv.url('/redirect/0'));
    await withTimeout(s.close(), T);
  });

  for (const enc of ['gzip', 'deflate', 'br']) {
    it(`${enc} body is decoded`, async () => {
      const s = new tls.Session();
      const res = await withTimeout(s.get(srv.url(`/${enc}`)), T);
      assert.equal(echo(res).path, `/${enc}`, enc);
      await withTimeout(s.close(), T);
    });
  }

  it('concurrent requests on the worker pool each get their own response', async () => {
    const s = new tls.Session();
    const n = 40;
    const rs = await withTimeout(Promise.all(
      Array.from({ length: n }, (_, i) => s.get(srv.url(`/delay/100/n${i}`)))), 30000);
    rs.forEach((r, i) => {
      assert.equal(r.status, 200);
      assert.equal(JSON.parse(r.body).path, `/delay/100/n${i}`);
    });
    await withTimeout(s.close(), T);
  });

  it('failures are status 0 with the reason in body', async () => {
    const s = new tls.Session();
    // nothing listens on port 1
    const r = await withTimeout(s.get('http://127.0.0.1:1/'), T);
    assert.equal(r.status, 0);
    assert.equal(r.ok, false);
    assert.ok(typeof r.body === 'string' && r.body.length > 0, `body: ${r.body}`);
    await withTimeout(s.close(), T);
  });

  it('timeout (timeoutMilliseconds) ends a slow request with status 0', async () => {
    const s = new tls.Session({ timeout: 500 });
    const t0 = Date.now();
    const r = await withTimeout(s.get(srv.url('/delay/5000/slow')), T);
    const dt = Date.now() - t0;
    assert.equal(r.status, 0, `status ${r.status}`);
    assert.ok(dt < 4000, `took ${dt} ms`);
    await withTimeout(s.close(), T);
  });

  it('the fetch() helper works (creates and closes its own session)', async () => {
    const r = await withTimeout(tls.fetch(srv.url('/echo'), { method: 'POST', body: 'via fetch' }), T);
    assert.equal(echo(r).body, 'via fetch');
  });

  it('destroyTLS() closes the client', async () => {
    await withTimeout(tls.destroyTLS(), T, 'destroyTLS');
  });

  it('initTLS() again after destroyTLS() works (its worker threads load the library anew)', async () => {
    await withTimeout(tls.initTLS(), T, 'initTLS again');
    const s = new tls.Session();
    assert.equal(echo(await withTimeout(s.get(srv.url('/echo?again=1')), T)).path, '/echo?again=1');
    await withTimeout(s.close(), T);
    await withTimeout(tls.destroyTLS(), T, 'destroyTLS again');
  });
});

'use strict';
// Helpers shared by the Node binding tests and bench/.
const fs = require('fs');
const os = require('os');
const path = require('path');

const repoRoot = path.resolve(__dirname, '..', '..');

/** The library under test: $TLS_CLIENT_LIB (relative paths against the cwd),
 * else build/libtls-client.so in this repository. */
function libPath() {
  const env = process.env.TLS_CLIENT_LIB;
  const p = env ? path.resolve(process.cwd(), env) : path.join(repoRoot, 'build', 'libtls-client.so');
  if (!fs.existsSync(p)) throw new Error(`library not found: ${p} (set TLS_CLIENT_LIB)`);
  return p;
}

/** File name node-tls-client 2.1.0 looks for in os.tmpdir() (dist/utils/native.js). */
function nodeTlsClientFileName() {
  const map = {
    'linux-x64': 'tls-client-x64.so',
    'linux-arm64': 'tls-client-arm64.so',
    'darwin-arm64': 'tls-client-arm64.dylib',
    'darwin-x64': 'tls-client-x86.dylib',
    'win32-x64': 'tls-client-64.dll',
    'win32-ia32': 'tls-client-32.dll',
  };
  return map[`${process.platform}-${process.arch}`] || 'tls-client-amd64.so';
}

/** Copies the library where node-tls-client 2.1.0 loads it from and points
 * os.tmpdir() there. Must run before node-tls-client is first required:
 * the package computes the path when its modules load. Returns the folder. */
function prepareNodeTlsClient() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ntc-lib-'));
  fs.copyFileSync(libPath(), path.join(dir, nodeTlsClientFileName()));
  process.env.TMPDIR = dir;
  if (process.platform === 'win32') process.env.TEMP = process.env.TMP = dir;  // Windows' os.tmpdir()
  if (os.tmpdir() !== dir) throw new Error(`os.tmpdir() is ${os.tmpdir()}, not ${dir}`);
  return dir;
}

/** Resolves after ms, or rejects with msg: a bound on anything awaited. */
function withTimeout(promise, ms, msg) {
  let t;
  return Promise.race([
    promise,
    new Promise((_, rej) => { t = setTimeout(() => rej(new Error(msg || `timed out after ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(t));
}

/** How to start another Node process. A test under an emulator (another
 * CPU's Node in qemu-user, where this kernel cannot start that CPU's
 * programs by itself) says so in the environment:
 *   TLSC_PEER_NODE    the Node that runs test servers (this machine's own)
 *   TLSC_TARGET_NODE  the command that runs a child that loads the library,
 *                     e.g. "qemu-aarch64 /path/to/arm64/node"
 * Without them, both are this process's own Node. Returns [file, ...args]. */
function peerNode() {
  return [process.env.TLSC_PEER_NODE || process.execPath];
}
function targetNode() {
  const cmd = process.env.TLSC_TARGET_NODE;
  return cmd ? cmd.split(' ').filter(Boolean) : [process.execPath];
}

module.exports = { repoRoot, libPath, nodeTlsClientFileName, prepareNodeTlsClient, withTimeout, peerNode, targetNode };

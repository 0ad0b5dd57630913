// Independent ML-KEM-768 (FIPS 203) for tests/boringssl/mlkem_test.cc: reads
// commands from stdin, one per line, and writes one result line per command
// to stdout, in order. All values are lowercase hex.
//
//   keygen <seed: 64 bytes, d || z>   ->  <ek: 1184 bytes> <dk: 2400 bytes>
//   encap  <ek> <m: 32 bytes>         ->  <ciphertext: 1088 bytes> <shared secret: 32 bytes>
//   decap  <dk> <ciphertext>          ->  <shared secret>
//
// A command that noble rejects (e.g. an invalid key) gives `error <message>`.
// Uses @noble/post-quantum, pinned in package.json (run `npm ci` here first).
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';

const fromHex = (s) => {
  if (!/^([0-9a-f]{2})*$/i.test(s)) throw new Error(`bad hex: ${s.slice(0, 16)}`);
  return Uint8Array.from(Buffer.from(s, 'hex'));
};
const toHex = (b) => Buffer.from(b).toString('hex');

function run(line) {
  const [cmd, ...args] = line.trim().split(/\s+/);
  switch (cmd) {
    case 'keygen': {
      const { publicKey, secretKey } = ml_kem768.keygen(fromHex(args[0]));
      return `${toHex(publicKey)} ${toHex(secretKey)}`;
    }
    case 'encap': {
      const { cipherText, sharedSecret } = ml_kem768.encapsulate(fromHex(args[0]), fromHex(args[1]));
      return `${toHex(cipherText)} ${toHex(sharedSecret)}`;
    }
    case 'decap':
      return toHex(ml_kem768.decapsulate(fromHex(args[1]), fromHex(args[0])));
    default:
      throw new Error(`unknown command: ${cmd}`);
  }
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const out = [];
for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
  if (line.trim() === '') continue;
  try {
    out.push(run(line));
  } catch (e) {
    out.push(`error ${String(e && e.message ? e.message : e).replace(/\s+/g, ' ')}`);
  }
}
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));

'use strict';
// Compressed bodies that inflate to many zeros: a few KB on the wire, up to
// gigabytes decoded. Made once per (encoding, size) by streaming zeros
// through Node's compressor, so no server ever holds the decoded body.
const zlib = require('zlib');

const cache = new Map();

function compressor(encoding) {
  switch (encoding) {
    case 'br':
      return zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
    case 'gzip':
      return zlib.createGzip({ level: 9 });
    case 'deflate':
      return zlib.createDeflate({ level: 9 });
    default:
      return null;
  }
}

// Resolves to the compressed bytes of `mib` MiB of zeros, or null for an
// encoding we do not make.
function bomb(encoding, mib) {
  const key = `${encoding}/${mib}`;
  if (cache.has(key)) return cache.get(key);
  const c = compressor(encoding);
  if (!c) return Promise.resolve(null);
  const made = new Promise((resolve, reject) => {
    const out = [];
    c.on('data', (d) => out.push(d));
    c.on('end', () => resolve(Buffer.concat(out)));
    c.on('error', reject);
    const zeros = Buffer.alloc(1 << 20);
    let written = 0;
    const pump = () => {
      while (written < mib) {
        written++;
        if (!c.write(zeros)) return c.once('drain', pump);
      }
      c.end();
    };
    pump();
  });
  cache.set(key, made);
  return made;
}

module.exports = { bomb };

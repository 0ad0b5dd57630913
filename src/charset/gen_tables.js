#!/usr/bin/env node
// Generates src/charset/tables.cc: the decoding tables of every legacy
// encoding that Go's golang.org/x/net/html/charset can select.
//
// Usage:
//   node src/charset/gen_tables.js X_TEXT_DIR > src/charset/tables.cc
//   node src/charset/gen_tables.js X_TEXT_DIR --compare   (report only)
//
// X_TEXT_DIR is a checkout of golang.org/x/text at the version upstream
// pins (v0.32.0 for tls-client's go.mod at the time of writing; the tables
// have not changed since 2017). The tables must be Go's, not today's WHATWG
// indexes and not ICU's: x/text generated them from the 2013 WHATWG index
// files and Microsoft's code pages (undefined windows-125x bytes decode to
// U+FFFD there, not to C1 controls), and its decoders bounds-check pointers
// against the exact table lengths, so even the lengths are behaviour.
//
// Node's TextDecoder cannot be the source: it is ICU-based and differs from
// both x/text and WHATWG (windows-1252 decodes as latin1, EUC-KR lacks the
// UHC extension, Big5 maps HKSCS to PUA, GBK lacks four-byte sequences,
// iso-8859-16 and x-user-defined are missing). --compare prints how far
// TextDecoder is from the generated tables, to keep that claim checkable.
'use strict';

const fs = require('fs');
const path = require('path');

const SINGLE_BYTE = [
  // [C++ name, Go variable in charmap/tables.go, TextDecoder label]
  ['ibm866', 'codePage866', 'ibm866'],
  ['iso8859_2', 'iso8859_2', 'iso-8859-2'],
  ['iso8859_3', 'iso8859_3', 'iso-8859-3'],
  ['iso8859_4', 'iso8859_4', 'iso-8859-4'],
  ['iso8859_5', 'iso8859_5', 'iso-8859-5'],
  ['iso8859_6', 'iso8859_6', 'iso-8859-6'],
  ['iso8859_7', 'iso8859_7', 'iso-8859-7'],
  ['iso8859_8', 'iso8859_8', 'iso-8859-8'],
  ['iso8859_10', 'iso8859_10', 'iso-8859-10'],
  ['iso8859_13', 'iso8859_13', 'iso-8859-13'],
  ['iso8859_14', 'iso8859_14', 'iso-8859-14'],
  ['iso8859_15', 'iso8859_15', 'iso-8859-15'],
  ['iso8859_16', 'iso8859_16', 'iso-8859-16'],
  ['koi8_r', 'koi8R', 'koi8-r'],
  ['koi8_u', 'koi8U', 'koi8-u'],
  ['macintosh', 'macintosh', 'macintosh'],
  ['x_mac_cyrillic', 'macintoshCyrillic', 'x-mac-cyrillic'],
  ['windows874', 'windows874', 'windows-874'],
  ['windows1250', 'windows1250', 'windows-1250'],
  ['windows1251', 'windows1251', 'windows-1251'],
  ['windows1252', 'windows1252', 'windows-1252'],
  ['windows1253', 'windows1253', 'windows-1253'],
  ['windows1254', 'windows1254', 'windows-1254'],
  ['windows1255', 'windows1255', 'windows-1255'],
  ['windows1256', 'windows1256', 'windows-1256'],
  ['windows1257', 'windows1257', 'windows-1257'],
  ['windows1258', 'windows1258', 'windows-1258'],
  ['x_user_defined', 'xUserDefined', 'x-user-defined'],
];

function die(msg) {
  process.stderr.write(`gen_tables: ${msg}\n`);
  process.exit(1);
}

function readGo(root, rel) {
  const file = path.join(root, 'encoding', rel);
  if (!fs.existsSync(file)) die(`missing ${file}`);
  return fs.readFileSync(file, 'utf8');
}

// Body of `var NAME = [...]T{ ... }` up to the matching close brace.
function goArrayBody(src, name) {
  const head = new RegExp(`\\nvar ${name} = \\[\\.\\.\\.\\][^{]*\\{`);
  const m = head.exec(src);
  if (!m) die(`array ${name} not found`);
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  for (; i < src.length && depth > 0; i++) {
    if (src[i] === '{') depth++;
    else if (src[i] === '}') depth--;
  }
  return src.slice(start, i - 1);
}

// Keyed Go array literal ("12: 0x4E02,"): length is the largest key + 1,
// and the missing keys are zero, exactly as the Go compiler lays it out.
function keyedArray(src, name) {
  const body = goArrayBody(src, name);
  const out = [];
  const re = /(\d+):\s*(0x[0-9A-Fa-f]+)/g;
  let m;
  while ((m = re.exec(body))) out[Number(m[1])] = Number(m[2]);
  for (let i = 0; i < out.length; i++) if (out[i] === undefined) out[i] = 0;
  return out;
}

function gb18030Ranges(src) {
  const body = goArrayBody(src, 'gb18030');
  const out = [];
  const re = /\{(0x[0-9a-fA-F]+),\s*(0x[0-9a-fA-F]+)\}/g;
  let m;
  while ((m = re.exec(body))) out.push([Number(m[1]), Number(m[2])]);
  return out;
}

function utf8ToCodePoint(bytes) {
  const s = Buffer.from(bytes).toString('utf8');
  const cps = [...s].map((c) => c.codePointAt(0));
  if (cps.length !== 1) die(`bad utf8Enc entry ${bytes}`);
  return cps[0];
}

// A charmap's decode table is 256 `{len, [3]byte{...}}` UTF-8 encodings.
function charmapUpperHalf(src, goName) {
  const head = new RegExp(`\\nvar ${goName} = Charmap\\{`);
  const m = head.exec(src);
  if (!m) die(`charmap ${goName} not found`);
  const rest = src.slice(m.index + m[0].length);
  if (!/asciiSuperset:\s*true/.test(rest.slice(0, 300))) {
    die(`${goName} is not an ASCII superset; decoder would need the low half`);
  }
  const dstart = rest.indexOf('decode: [256]utf8Enc{');
  const dend = rest.indexOf('encode: [256]uint32{');
  const decode = rest.slice(dstart, dend);
  const re = /\{(\d),\s*\[3\]byte\{(0x[0-9a-f]{2}),\s*(0x[0-9a-f]{2}),\s*(0x[0-9a-f]{2})\}\}/g;
  const cps = [];
  let e;
  while ((e = re.exec(decode))) {
    const n = Number(e[1]);
    cps.push(utf8ToCodePoint([Number(e[2]), Number(e[3]), Number(e[4])].slice(0, n)));
  }
  if (cps.length !== 256) die(`${goName}: ${cps.length} decode entries`);
  for (let b = 0; b < 128; b++) {
    if (cps[b] !== b) die(`${goName}: low half not ASCII at ${b}`);
  }
  const high = cps.slice(128);
  if (high.some((cp) => cp > 0xffff)) die(`${goName}: non-BMP entry`);
  return high;
}

function load(root) {
  const charmap = readGo(root, 'charmap/tables.go');
  const ja = readGo(root, 'japanese/tables.go');
  const ko = readGo(root, 'korean/tables.go');
  const sc = readGo(root, 'simplifiedchinese/tables.go');
  const tc = readGo(root, 'traditionalchinese/tables.go');
  const single = SINGLE_BYTE.map(([cxx, goName, label]) => ({
    cxx, label, high: charmapUpperHalf(charmap, goName),
  }));
  return {
    single,
    jis0208: keyedArray(ja, 'jis0208Decode'),
    jis0212: keyedArray(ja, 'jis0212Decode'),
    euckr: keyedArray(ko, 'decode'),
    gbk: keyedArray(sc, 'decode'),
    gb18030: gb18030Ranges(sc),
    big5: keyedArray(tc, 'decode'),
  };
}

function numbers(values) {
  const lines = [];
  let line = '';
  for (const v of values) {
    const item = `${v},`;
    if (line.length + item.length > 99) {
      lines.push(line);
      line = '';
    }
    line += item;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

function emit(t) {
  const out = [];
  out.push('// Code generated by src/charset/gen_tables.js from golang.org/x/text');
  out.push('// encoding tables. DO NOT EDIT.');
  out.push('#include "charset/tables.h"');
  out.push('');
  out.push('namespace tlsc::charset::tables {');
  out.push('namespace {');
  const arr = (type, name, values) => {
    out.push(`constexpr ${type} k${name}[${values.length}] = {`);
    out.push(numbers(values));
    out.push('};');
  };
  arr('std::uint16_t', 'Jis0208', t.jis0208);
  arr('std::uint16_t', 'Jis0212', t.jis0212);
  arr('std::uint16_t', 'EucKr', t.euckr);
  arr('std::uint16_t', 'Gbk', t.gbk);
  arr('std::uint16_t', 'Gb18030Ranges', t.gb18030.flat());
  // Big5 is the one index with supplementary-plane entries; they are all in
  // plane 2, so 16 bits plus a sorted list of the plane-2 pointers suffice.
  const big5Low = t.big5.map((cp) => cp & 0xffff);
  const big5Plane2 = [];
  t.big5.forEach((cp, i) => {
    if (cp > 0xffff) {
      if (cp >> 16 !== 2) die(`big5 pointer ${i} outside plane 2`);
      big5Plane2.push(i);
    }
  });
  arr('std::uint16_t', 'Big5Low', big5Low);
  arr('std::uint16_t', 'Big5Plane2', big5Plane2);
  out.push('}  // namespace');
  out.push('');
  for (const s of t.single) {
    out.push(`constinit const std::array<std::uint16_t, 128> ${s.cxx} = {`);
    out.push(numbers(s.high));
    out.push('};');
  }
  out.push('constinit const std::span<const std::uint16_t> jis0208{kJis0208};');
  out.push('constinit const std::span<const std::uint16_t> jis0212{kJis0212};');
  out.push('constinit const std::span<const std::uint16_t> euc_kr{kEucKr};');
  out.push('constinit const std::span<const std::uint16_t> gbk{kGbk};');
  out.push('constinit const std::span<const std::uint16_t> gb18030_ranges{kGb18030Ranges};');
  out.push('constinit const std::span<const std::uint16_t> big5_low{kBig5Low};');
  out.push('constinit const std::span<const std::uint16_t> big5_plane2{kBig5Plane2};');
  out.push('');
  out.push('}  // namespace tlsc::charset::tables');
  out.push('');
  return out.join('\n');
}

function codePoints(s) {
  return [...s].map((c) => c.codePointAt(0));
}

function tryDecoder(label) {
  try {
    return new TextDecoder(label, { fatal: false, ignoreBOM: true });
  } catch (e) {
    return null;
  }
}

function compareMultiByte(name, label, table, bytesOf) {
  const dec = tryDecoder(label);
  if (!dec) return `${name}: TextDecoder has no ${label}`;
  let diff = 0;
  let mapped = 0;
  for (let p = 0; p < table.length; p++) {
    if (!table[p]) continue;
    const bytes = bytesOf(p);
    if (!bytes) continue;
    mapped++;
    const got = codePoints(dec.decode(new Uint8Array(bytes)));
    if (got.length !== 1 || got[0] !== table[p]) diff++;
  }
  return `${name}: ${diff} of ${mapped} mapped pointers differ from TextDecoder(${label})`;
}

function compare(t) {
  const lines = [];
  for (const s of t.single) {
    const dec = tryDecoder(s.label);
    if (!dec) {
      lines.push(`${s.cxx}: TextDecoder has no ${s.label}`);
      continue;
    }
    let diff = 0;
    for (let b = 0; b < 128; b++) {
      const got = codePoints(dec.decode(new Uint8Array([b + 0x80])));
      if (got.length !== 1 || got[0] !== s.high[b]) diff++;
    }
    lines.push(`${s.cxx}: ${diff} of 128 bytes differ from TextDecoder(${s.label})`);
  }
  const jisLead = (p) => [0xa1 + Math.floor(p / 94), 0xa1 + (p % 94)];
  lines.push(compareMultiByte('jis0208 via euc-jp', 'euc-jp', t.jis0208,
    (p) => (p < 94 * 94 ? jisLead(p) : null)));
  lines.push(compareMultiByte('jis0212 via euc-jp', 'euc-jp', t.jis0212,
    (p) => (p < 94 * 94 ? [0x8f, ...jisLead(p)] : null)));
  // x/text packs EUC-KR rows 0x81..0xC6 as 178 cells (A-Z, a-z, 0x81..0xFE)
  // and later rows as 94 cells, not as WHATWG's 190-cell pointers.
  lines.push(compareMultiByte('euc-kr', 'euc-kr', t.euckr, (p) => {
    const wide = 178 * (0xc7 - 0x81);
    if (p >= wide) return [0xc7 + Math.floor((p - wide) / 94), 0xa1 + ((p - wide) % 94)];
    const off = p % 178;
    const trail = off < 26 ? 0x41 + off : off < 52 ? 0x61 + off - 26 : 0x81 + off - 52;
    return [0x81 + Math.floor(p / 178), trail];
  }));
  lines.push(compareMultiByte('gbk', 'gbk', t.gbk, (p) => {
    const lead = 0x81 + Math.floor(p / 190);
    const off = p % 190;
    return [lead, off < 0x3f ? off + 0x40 : off + 0x41];
  }));
  lines.push(compareMultiByte('big5', 'big5', t.big5, (p) => {
    const lead = 0x81 + Math.floor(p / 157);
    const off = p % 157;
    return [lead, off < 0x3f ? off + 0x40 : off + 0x62];
  }));
  process.stderr.write(`${lines.join('\n')}\n`);
}

function main() {
  const args = process.argv.slice(2);
  const root = args.find((a) => !a.startsWith('--'));
  if (!root) die('usage: gen_tables.js X_TEXT_DIR [--compare]');
  const tables = load(root);
  if (args.includes('--compare')) {
    compare(tables);
    return;
  }
  process.stdout.write(emit(tables));
}

main();

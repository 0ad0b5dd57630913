#!/usr/bin/env node
'use strict';
// Drops, from tests/bindings/package-lock.json, optional dependencies that
// the lock has no entry for. The npm registry reachable here lacks the other
// platforms' prebuilt packages of some bench peers (wreq-js 3.1.0:
// @wreq-js/binding-darwin-*, -win32-*, -linux-arm64-*; impit 0.14.5: every
// platform package but linux-x64), so `npm install` cannot lock them, and
// `npm ci` then refuses the lock ("Missing: ... from lock file"). Run this
// after any `npm install` in tests/bindings; it changes nothing else.
const fs = require('fs');
const path = require('path');

const file = process.argv[2] || path.join(__dirname, '..', 'tests', 'bindings', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pkgs = lock.packages || {};
let dropped = 0;
for (const [key, entry] of Object.entries(pkgs)) {
  const od = entry.optionalDependencies;
  if (!od) continue;
  for (const name of Object.keys(od)) {
    // npm resolves a dependency in the nearest node_modules up the tree
    let found = false;
    for (let dir = key; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
      if (pkgs[`${dir ? `${dir}/` : ''}node_modules/${name}`]) { found = true; break; }
      if (!dir) break;
    }
    if (!found) { delete od[name]; dropped++; console.log(`dropped ${key} -> ${name}`); }
  }
  if (!Object.keys(od).length) delete entry.optionalDependencies;
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`${dropped} dropped`);

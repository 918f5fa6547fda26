#!/usr/bin/env node
// The package registry this project installs from serves the native binaries of a few packages (@swc/core,
// unrs-resolver, sass-embedded) for some platforms only. npm then writes a lockfile that names optional
// dependencies it could not resolve, and `npm ci` refuses that lockfile as "out of sync". This script removes,
// from each locked package's optionalDependencies, the names that have no entry of their own in the lockfile.
// Run it after `npm install` changes the lockfile: `node tools/scripts/prune-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages ?? {};

function resolves(from, name) {
  // Node's lookup: the nearest node_modules folder up from the dependent package.
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return true;
    if (!base) return false;
    const index = base.lastIndexOf('/node_modules/');
    base = index === -1 ? '' : base.slice(0, index);
  }
}

let removed = 0;
for (const [path, entry] of Object.entries(packages)) {
  if (!entry.optionalDependencies) continue;
  for (const name of Object.keys(entry.optionalDependencies)) {
    if (!resolves(path, name)) {
      delete entry.optionalDependencies[name];
      removed += 1;
    }
  }
  if (Object.keys(entry.optionalDependencies).length === 0) delete entry.optionalDependencies;
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`prune-lockfile: removed ${removed} optional dependencies the registry does not serve`);

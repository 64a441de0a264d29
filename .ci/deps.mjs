/**
 * The package sets NOTICE.md must list, computed from package-lock.json alone (so the check does
 * not depend on what happens to be installed): the production dependency tree, and the packages
 * the web client bundles (the closure of its bare imports, which are devDependencies because
 * Vite copies them into dist/client).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Packages the web client imports by name (client/src), bundled into dist/client. */
export const CLIENT_BUNDLED_ROOTS = ['lit'];

const nameOf = (path, entry) =>
  entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

export function lockPackages(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const entries = Object.entries(lock.packages).filter(([path, e]) => path !== '' && !e.link);
  /** Production packages: required (must be listed) and optional (platform binaries: may be listed). */
  const required = new Set();
  const optional = new Set();
  for (const [path, e] of entries) {
    if (e.dev) continue;
    (e.optional ? optional : required).add(`${nameOf(path, e)}@${e.version}`);
  }
  // The client's bundle: follow dependencies the way node resolves them (nearest node_modules).
  const byPath = new Map(entries);
  const resolveFrom = (fromPath, name) => {
    let base = fromPath;
    for (;;) {
      const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
      if (byPath.has(candidate)) return candidate;
      if (base === '') return undefined;
      const cut = base.lastIndexOf('/node_modules/');
      base = cut < 0 ? '' : base.slice(0, cut);
    }
  };
  const bundled = new Set();
  const queue = CLIENT_BUNDLED_ROOTS.map((n) => resolveFrom('', n)).filter(Boolean);
  const seen = new Set();
  while (queue.length > 0) {
    const path = queue.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const e = byPath.get(path);
    bundled.add(`${nameOf(path, e)}@${e.version}`);
    for (const dep of Object.keys(e.dependencies ?? {})) {
      const next = resolveFrom(path, dep);
      if (next) queue.push(next);
    }
  }
  return { required, optional, bundled };
}

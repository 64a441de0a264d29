/**
 * The repository stands alone. Fails (exit 1, one line per problem) on:
 * - a markdown link (`[text](target)`) to a file or folder that is not in the repository;
 * - a reference to a path outside the repository in a tracked text file: a relative path that
 *   climbs above the repository's root, a relative path to a markdown file that does not land on
 *   one of the repository's, an absolute path of a machine (a home, root or build
 *   directory), or a document the repository does not ship (any markdown file name that no
 *   tracked file is called, or a docs/ page that does not exist here);
 * - tracked run-time files: `*.pid`, `*.log`, the `data/` folder npm start creates (at the top, or
 *   any `data/work/` or `data/publication/`);
 * - a tracked symbolic link (a link to a machine's folder, such as a worktree's node_modules,
 *   replaces what is installed there when it is checked out);
 * - a package in package-lock.json whose `engines.node` refuses the Node running the check (the
 *   project's Node, 20.x on its machines): npm would warn EBADENGINE at install;
 * - a NOTICE.md that does not list the production dependency tree of package-lock.json (and the
 *   packages the web client bundles): run `npm run notice`.
 * Every tracked text file is read, this one included; only the lockfile is skipped.
 * Files are the ones git tracks plus new files not ignored, so a check before `git add` sees them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { lockPackages } from './deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const problem = (file, line, message) => problems.push(`${file}${line ? `:${line}` : ''}: ${message}`);

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((f) => f !== '' && existsSync(join(root, f)));
const fileSet = new Set(files);
const dirSet = new Set(
  files.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const exists = (path) => path === '' || fileSet.has(path) || dirSet.has(path);

// Run-time files.
for (const f of files) {
  if (/\.pid$/.test(f) || /\.log$/.test(f) || /^data\/|(^|\/)data\/(work|publication)\//.test(f)) {
    problem(f, 0, 'a run-time file is tracked (remove it and keep it in .gitignore)');
  }
}

const TEXT =
  /\.(md|ts|tsx|js|mjs|cjs|json|ya?ml|html|css|conf|sh|txt|sql|toml)$|(^|\/)(\.gitignore|LICENSE|\.ci\/[^/.]+)$/;
const SELF = new Set(['package-lock.json']);

/** Absolute paths of machines and temporary files outside the working directory. */
const OUTSIDE = [
  [/(?<![\w.~/-])\/(?:home|root|Users|work|srv\/build)\//, 'an absolute path of a machine'],
  [/\/tmp\/jar\b/, 'a temporary file outside the working directory'],
];
for (const line of execFileSync('git', ['ls-files', '--cached', '-s', '-z'], {
  cwd: root,
  encoding: 'utf8',
}).split('\0')) {
  const [mode, , , ...name] = line.split(/\s+/);
  if (mode === '120000')
    problem(name.join(' '), 0, 'a tracked symbolic link: remove it from the index (git rm --cached)');
}
// Every installed package accepts the Node that runs the project.
{
  const node = process.versions.node;
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  for (const [path, info] of Object.entries(lock.packages ?? {})) {
    const wanted = info.engines?.node;
    if (path === '' || typeof wanted !== 'string') continue;
    if (!semver.satisfies(node, wanted))
      problem(
        'package-lock.json',
        0,
        `${path.replace(/^.*node_modules\//, '')}@${info.version} needs Node ${wanted}, not ${node} (EBADENGINE)`,
      );
  }
}
const shipped = new Set(files.map((f) => f.split('/').pop()));

/** The anchors of a markdown file's headings, as GitHub makes them (duplicates get -1, -2, ...). */
const anchorCache = new Map();
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const h = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = h[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

for (const f of files) {
  if (!TEXT.test(f) || SELF.has(f)) continue;
  const text = readFileSync(join(root, f), 'utf8');
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const found = OUTSIDE.filter(([re]) => re.test(line));
    for (const [, message] of found) problem(f, i + 1, `${message}: ${line.trim().slice(0, 120)}`);
    if (found.length > 0) return;
    // A relative path that climbs above the root points at a folder users do not have.
    for (const m of line.matchAll(/(?<![\w./])((?:\.\.\/)+)[\w-]/g)) {
      if (relative('.', normalize(join(dirname(f), m[1]))).startsWith('..')) {
        problem(f, i + 1, `a path outside the repository: ${line.trim().slice(0, 120)}`);
        return;
      }
    }
    // A relative path to a document that climbs inside the repository must land on one it has
    // (two levels up to a spec folder, from test/helpers/, lands in test/: a folder users lack).
    for (const m of line.matchAll(/(?<![\w./])((?:\.\.\/)+[\w./-]*?[\w-]+\.md)\b/g)) {
      const target = relative('.', normalize(join(dirname(f), m[1])));
      if (!fileSet.has(target))
        problem(f, i + 1, `a path to a document the repository does not have: ${m[1]}`);
    }
    for (const name of new Set([...line.matchAll(/(?<![\w/.:-])([\w-]+\.md)\b/g)].map((m) => m[1]))) {
      if (!shipped.has(name)) problem(f, i + 1, `names ${name}, which the repository does not ship`);
    }
    for (const name of new Set([...line.matchAll(/(?<![\w.-])docs\/([\w.-]+\.md)\b/g)].map((m) => m[1]))) {
      if (!fileSet.has(`docs/${name}`)) problem(f, i + 1, `names docs/${name}, which does not exist`);
    }
  });
  if (f.endsWith('.md')) {
    let fenced = false;
    lines.forEach((line, i) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return;
      const prose = line.replace(/`[^`]*`/g, '');
      for (const m of prose.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        if (target.startsWith('#')) {
          if (!anchorsOf(f).has(target.slice(1))) problem(f, i + 1, `links to a missing heading: ${target}`);
          continue;
        }
        const path = decodeURIComponent(target.split('#')[0].split('?')[0]);
        const resolved = normalize(join(dirname(f), path))
          .replace(/\\/g, '/')
          .replace(/\/$/, '');
        const rel = relative('.', resolved).replace(/\\/g, '/');
        const anchor = target.includes('#') ? target.slice(target.indexOf('#') + 1) : '';
        if (rel.startsWith('..')) problem(f, i + 1, `links outside the repository: ${target}`);
        else if (!exists(rel === '.' ? '' : rel)) problem(f, i + 1, `links to a missing file: ${target}`);
        else if (anchor !== '' && rel.endsWith('.md') && !anchorsOf(rel).has(anchor)) {
          problem(f, i + 1, `links to a missing heading: ${target}`);
        }
      }
    });
  }
}

// NOTICE.md against the dependency tree.
if (!fileSet.has('NOTICE.md')) {
  problem('NOTICE.md', 0, 'missing: run `npm run notice`');
} else {
  const notice = readFileSync(join(root, 'NOTICE.md'), 'utf8');
  const [servers, client = ''] = notice.split(/^## The web client/m);
  const listed = (part) =>
    new Set(
      [...part.matchAll(/^\| (\S+) \| (\S+) \| .* \|$/gm)]
        .filter((m) => m[1] !== 'Package' && m[1] !== '---')
        .map((m) => `${m[1]}@${m[2]}`),
    );
  const { required, optional, bundled } = lockPackages(root);
  const inServers = listed(servers);
  for (const id of required)
    if (!inServers.has(id)) problem('NOTICE.md', 0, `does not list ${id} (run \`npm run notice\`)`);
  for (const id of inServers) {
    if (!required.has(id) && !optional.has(id))
      problem('NOTICE.md', 0, `lists ${id}, which is not a production dependency (run \`npm run notice\`)`);
  }
  const inClient = listed(client);
  for (const id of bundled)
    if (!inClient.has(id))
      problem(
        'NOTICE.md',
        0,
        `does not list ${id} among the client's bundled packages (run \`npm run notice\`)`,
      );
  for (const id of inClient)
    if (!bundled.has(id))
      problem(
        'NOTICE.md',
        0,
        `lists ${id} as bundled, which the client no longer bundles (run \`npm run notice\`)`,
      );
}

if (problems.length > 0) {
  console.error(`.ci/check-repo: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`.ci/check-repo: ${files.length} files checked, no problem`);

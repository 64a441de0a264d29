/**
 * What the web client's browser tests share: Debian's Chromium through playwright-core (skipped
 * with a message when absent, except under CI=true), the built client (dist/client, built here
 * once when a checkout has not built it), screenshots into the git-ignored test-screenshots/, and
 * axe-core run in the page.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { builtClientDir } from '../../src/work/ui/serve-client.js';
import { TEST_ROOT_PASSWORD } from './work-server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI === 'true') throw new Error(`CI=true but no Chromium at ${CHROMIUM}`);

export const SCREENSHOT_DIR = join(builtClientDir(), '..', '..', 'test-screenshots');

/** Builds the client once if this checkout has not (npm install's prepare normally did). */
export function ensureClientBuilt(): void {
  if (existsSync(join(builtClientDir(), 'index.html'))) return;
  execFileSync('npx', ['vite', 'build', '--config', 'client/vite.config.ts', '--logLevel', 'warn'], {
    cwd: join(builtClientDir(), '..', '..'),
    stdio: 'inherit',
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** Pictures of failed steps from an earlier run would mislead a reviewer: drop them. */
export function clearFailureScreenshots(): void {
  if (!existsSync(SCREENSHOT_DIR)) return;
  for (const f of readdirSync(SCREENSHOT_DIR)) if (f.startsWith('failed-')) rmSync(join(SCREENSHOT_DIR, f));
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (the context must bypass CSP). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const require = createRequire(import.meta.url);
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = (await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the script tag defined
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * A blank page with the built client bundle loaded (every custom element defined, no app mounted,
 * no server): component-level tests mount one element with the properties they choose.
 */
export async function openBundlePage(browser: Browser): Promise<Page> {
  ensureClientBuilt();
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html lang="en"><body></body></html>');
  const dir = join(builtClientDir(), 'assets');
  const bundle = readdirSync(dir).find((f) => f.endsWith('.js'))!;
  await page.addScriptTag({ path: join(dir, bundle), type: 'module' });
  await page.waitForFunction(() => customElements.get('dd-transcription-editor') !== undefined);
  return page;
}

/** Says once why a file's browser tests are skipped when there is no Chromium (`what` names them). */
export function warnWithoutChromium(what: string): void {
  if (!haveChromium) console.warn(`\n[skip] no Chromium: ${what} skipped.\n`);
}

/** The client built, pictures of earlier failures dropped, and Chromium launched: a file's set-up. */
export function startClientChromium(): Promise<Browser> {
  ensureClientBuilt();
  clearFailureScreenshots();
  return launchChromium();
}

/**
 * A fresh context (no cookies) and its page, where an error thrown in the page fails the test.
 * bypassCSP only so a test can inject axe-core; the app itself runs under the CSP.
 */
export async function newAppPage(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (err) => {
    throw err;
  });
  return { context, page };
}

/** Logs in through the client's login form (root by default). */
export async function logIn(page: Page, username = 'root', password = TEST_ROOT_PASSWORD): Promise<void> {
  await page.getByLabel('User').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Enter' }).click();
}

/** Chromium launched and a page of the built bundle (openBundlePage): a component-level file's set-up. */
export async function launchBundlePage(): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  return { browser, page: await openBundlePage(browser) };
}

/**
 * axe-core's violations of every impact (minor and moderate too) on the page as it is now, as
 * `id impact: target` lines so a failure names what and where (the context must bypass CSP).
 */
export async function allViolations(page: Page): Promise<string[]> {
  const require = createRequire(import.meta.url);
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = (await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the script tag defined
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${v.impact}: ${n.target.join(' ')}`));
}

/** Every text of the page, shadow roots and aria-label / title / placeholder included (what a person can read, roughly). */
export async function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walk = (root: Node) => {
      for (const n of Array.from(root.childNodes)) {
        if (n.nodeType === Node.TEXT_NODE) out.push(n.textContent ?? '');
        if (n instanceof Element) {
          if (n.tagName === 'STYLE' || n.tagName === 'SCRIPT' || n.tagName === 'DIALOG') continue;
          for (const a of ['aria-label', 'title', 'placeholder']) {
            const v = n.getAttribute(a);
            if (v) out.push(v);
          }
          if (n.shadowRoot) walk(n.shadowRoot);
          walk(n);
        }
      }
    };
    walk(document.body);
    return out.join(' ').replace(/\s+/g, ' ');
  });
}

/**
 * The English phrases of `text` that a screen in another language must not show: every interface
 * sentence of `english` that reads otherwise in `translated` (without its inserted values, four
 * letters or more), and the `extra` phrases (the ontology's English labels, say).
 */
export function englishLeftIn(
  text: string,
  english: Record<string, string>,
  translated: Record<string, string>,
  extra: readonly string[] = [],
): string[] {
  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const phrases = [
    ...Object.entries(english)
      .filter(([k, v]) => translated[k] !== v)
      .flatMap(([, v]) => v.split(/\{\{\w+\}\}/))
      .map((s) => s.trim())
      .filter((s) => s.length >= 4 && /[a-z]{3}/i.test(s)),
    ...extra,
  ];
  return [
    ...new Set(
      phrases.filter((phrase) =>
        new RegExp(`(^|[^\\p{L}])${escapeRegExp(phrase)}($|[^\\p{L}])`, 'u').test(text),
      ),
    ),
  ];
}

/**
 * A picture of the page when the test just failed (an afterEach's task), named
 * `failed-<prefix>-<the test's name>`, for whoever reads the CI log; never fails itself.
 */
export async function screenshotIfFailed(
  task: { name: string; result?: { state?: string } },
  page: Page | undefined,
  prefix: string,
): Promise<void> {
  if (task.result?.state !== 'fail' || !page || page.isClosed()) return;
  await screenshot(page, `failed-${prefix}-${task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
}

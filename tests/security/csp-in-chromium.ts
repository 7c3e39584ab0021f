/**
 * Loads the real pages in Debian Chromium against a running server and reports every
 * Content-Security-Policy violation (`securitypolicyviolation` events and console errors), the
 * market Web Worker and the WebSocket frames it received. Not part of `npm test` (it needs a
 * built client and a server):
 *
 *   npx vite build && PORT=3105 DATA_DIR=/tmp/csp-data OPERATOR_ACCOUNT=op-csp \
 *     OPERATOR_PASSWORD=csp-op-pass-1 INVITE_CODE=CSPCHECK npx tsx server/main.ts &
 *   BASE=http://127.0.0.1:3105 OPERATOR_ACCOUNT=op-csp OPERATOR_PASSWORD=csp-op-pass-1 \
 *     INVITE_CODE=CSPCHECK npx tsx tests/security/csp-in-chromium.ts
 *
 * Pages: the login start, market list, a stock detail, home, the real-name screen with an ID
 * photo chosen (a `blob:` preview), the operator console and `/api/docs`. Exit code 1 when any
 * page has a violation or an error.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';

const BASE = process.env.BASE ?? 'http://127.0.0.1:3105';
const INVITE = process.env.INVITE_CODE ?? 'CSPCHECK';
const OP_ACCOUNT = process.env.OPERATOR_ACCOUNT ?? 'op-csp';
const OP_PASSWORD = process.env.OPERATOR_PASSWORD ?? 'csp-op-pass-1';
const ACCOUNT = '0931000001';

async function api(name: string, body: unknown, token?: string) {
  const r = await fetch(`${BASE}/api/vue/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await r.json()) as { status: number; msg: string; data: { token: string } };
}

interface PageReport {
  label: string;
  status: number;
  violations: string[];
  errors: string[];
  workers: number;
  wsFrames: number;
}

const photo = path.join(os.tmpdir(), 'csp-id-photo.jpg');
writeFileSync(
  photo,
  await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer(),
);
let member = await api('user/register', {
  account: ACCOUNT,
  password: 'password123',
  confirmPassword: 'password123',
  inviteCode: INVITE,
  agree: true,
});
if (member.status !== 1) member = await api('user/login', { account: ACCOUNT, password: 'password123' });
const op = await api('admin/login', { account: OP_ACCOUNT, password: OP_PASSWORD });
if (member.status !== 1 || op.status !== 1)
  throw new Error('could not log in: check INVITE_CODE, OPERATOR_ACCOUNT and OPERATOR_PASSWORD');

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const reports: PageReport[] = [];

async function visit(
  label: string,
  url: string,
  storage: Record<string, string>,
  after?: (p: Page) => Promise<void>,
) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await ctx.addInitScript((s: Record<string, string>) => {
    for (const [k, v] of Object.entries(s)) localStorage.setItem(k, v);
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  }, storage);
  const page = await ctx.newPage();
  const errors: string[] = [];
  let workers = 0;
  let wsFrames = 0;
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content.Security/i.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('worker', (w) => {
    workers++;
    w.on('console', (m) => m.type() === 'error' && errors.push(`worker: ${m.text()}`));
  });
  page.on('websocket', (ws) => ws.on('framereceived', () => wsFrames++));
  const res = await page.goto(BASE + url, { waitUntil: 'load' });
  await page.waitForTimeout(4_000);
  if (after) await after(page);
  const violations = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  reports.push({ label, status: res?.status() ?? 0, violations, errors, workers, wsFrames });
  await ctx.close();
}

const asMember = { tokend: member.data.token, account: ACCOUNT };
await visit('login start', '/#/login/start', {});
await visit('market', '/#/market/market', asMember);
await visit('stock detail', '/#/market/marketDetail?symbol=2330', asMember);
await visit('home', '/#/home/index', asMember);
await visit('real name (ID photo preview)', '/#/user/bandCard', asMember, async (page) => {
  const input = await page.$('input[type=file]');
  if (!input) throw new Error('no file input on the real-name screen');
  await input.setInputFiles(photo);
  await page.waitForTimeout(2_000);
  const blobs = await page.$$eval('img', (els) =>
    els.filter((e) => e.src.startsWith('blob:') && e.naturalWidth > 0),
  );
  if (!blobs.length) throw new Error('the ID photo preview did not render');
});
await visit('operator console', '/admin.html', { admin_tokend: op.data.token, admin_account: OP_ACCOUNT });
await visit('API docs', '/api/docs', {});
await browser.close();

for (const r of reports)
  console.log(
    `${r.label.padEnd(30)} HTTP ${r.status}  violations ${r.violations.length}  errors ${r.errors.length}  workers ${r.workers}  ws frames ${r.wsFrames}`,
    ...[...r.violations, ...r.errors].map((x) => `\n    ${x}`),
  );
process.exit(reports.some((r) => r.violations.length || r.errors.length || r.status !== 200) ? 1 : 0);

/**
 * What the dashboard and console browser tests share: Debian's Chromium through playwright-core, a page
 * check that runs axe-core (no serious or critical violation) and saves screenshots at a desktop and a
 * phone width under test-results/, and small form helpers.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`Skipping browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const SHOTS = 'test-results';
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export const launch = (): Promise<Browser> => {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
};

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** A new page that records Content-Security-Policy violations reported on the console. */
export async function newPage(browser: Browser): Promise<{ page: Page; cspViolations: string[] }> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return { page, cspViolations };
}

/** axe-core on the page (zero serious or critical violations), then screenshots at both widths. */
export async function checkPage(page: Page, name: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE_SOURCE);
  type Violation = { id: string; impact: string; targets: string[] };
  const violations = (await page.evaluate(`axe.run(document).then((result) => result.violations.map((v) => ({
    id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) })))`)) as Violation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${name}: ${JSON.stringify(serious)}`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** Submits the form holding `selector` and waits for the next page. */
export async function submit(page: Page, selector: string): Promise<number> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return response?.status() ?? 0;
}

/** The CSRF token of the current page's first form. */
export const csrfOf = (page: Page) => page.getAttribute('input[name=_csrf]', 'value').then((v) => v ?? '');

export const pathOf = (url: string) => new URL(url).pathname;

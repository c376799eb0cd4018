/**
 * The Prometheus alert rules (deploy/prometheus/alerts.yml): every alert is complete and points at its
 * runbook entry, every metric an expression reads is one Ponte exports, and where promtool is installed
 * the rules pass `promtool check rules` and their unit tests (deploy/prometheus/alerts.test.yml).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { individualBody } from '../helpers/factories.ts';
import { client, eventually, type TestServer } from '../helpers/server.ts';
import { createEndpoint, STARTUP_TIMEOUT_MS, startWebhookServer } from '../webhooks/support.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULES = `${ROOT}deploy/prometheus/alerts.yml`;
const RULE_TESTS = `${ROOT}deploy/prometheus/alerts.test.yml`;
const RUNBOOK = readFileSync(`${ROOT}docs/RUNBOOK.md`, 'utf8');

type Rule = {
  alert?: string;
  expr?: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
const groups: { name: string; rules: Rule[] }[] = parse(readFileSync(RULES, 'utf8')).groups;
const alerts = groups.flatMap((group) => group.rules).filter((rule) => rule.alert);

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const RUNBOOK_ANCHORS = new Set([...RUNBOOK.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: identifiers left once strings, label matchers (`{...}`),
 * grouping and matching label lists (`by (...)`, `on (...)`...), range and subquery durations (`[5m]`),
 * function names (an identifier followed by `(`), keywords and numbers are taken out.
 */
function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+-?[0-9a-z]+/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const name = match[0];
    const start = match.index!;
    const before = stripped[start - 1];
    // part of a number (1e3, 0x1f) or of a duration (5m): not a name
    if (before !== undefined && /[0-9.]/.test(before)) continue;
    if (/^\s*\(/.test(stripped.slice(start + name.length))) continue;
    if (KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names];
}

describe('PromQL metric names', () => {
  it('keeps metrics and leaves out functions, labels, groupings, durations and numbers', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, route) (rate(a_bucket{status=~"5..", le!="x"}[5m]))) > 1e3',
      ),
    ).toEqual(['a_bucket']);
    expect(
      metricNames(
        '(max without (state) (x{state="in_use"}) >= max without (state) (y)) and on (instance) z offset 5m > 0',
      ),
    ).toEqual(['x', 'y', 'z']);
    expect(metricNames('sum(rate(b_total[30m:1m])) / ignoring(code) group_left sum(c) > bool 0.05')).toEqual([
      'b_total',
      'c',
    ]);
  });
});

describe('deploy/prometheus/alerts.yml', () => {
  it('gives every alert an expression, a duration, a severity, a summary, a description and a runbook entry', () => {
    expect(alerts.length).toBeGreaterThanOrEqual(8);
    const names = alerts.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of alerts) {
      const where = `alert ${rule.alert}`;
      expect(rule.expr, where).toMatch(/\S/);
      expect(rule.for, where).toMatch(/^\d+[smhd]$/);
      expect(['critical', 'warning'], where).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, where).toMatch(/\S/);
      expect(rule.annotations?.description, where).toMatch(/\S/);
      const url = rule.annotations?.runbook_url ?? '';
      expect(url, where).toMatch(/^docs\/RUNBOOK\.md#[a-z0-9-]+$/);
      const anchor = url.slice(url.indexOf('#') + 1);
      expect(RUNBOOK_ANCHORS.has(anchor), `${where}: no heading with anchor #${anchor}`).toBe(true);
      expect(anchor, where).toBe(anchorOf(rule.alert!));
    }
  });

  it('covers what an on-call must act on', () => {
    const read = new Set(alerts.flatMap((rule) => metricNames(rule.expr!)));
    for (const metric of [
      'ponte_pix_sweep_lag_seconds',
      'ponte_pix_oldest_pending_send_age_seconds',
      'ponte_webhook_delivery_failures_total',
      'ponte_outbox_oldest_event_age_seconds',
      'ponte_chain_balance_differences',
      'ponte_reference_rate_age_seconds',
      'ponte_db_pool_connections',
      'ponte_db_pool_max_connections',
      'ponte_http_requests_total',
    ])
      expect(read, metric).toContain(metric);
  });

  describe.runIf(existsSync('/usr/bin/promtool') || spawnSync('promtool', ['--version']).status === 0)(
    'with promtool',
    () => {
      const promtool = (...args: string[]) => spawnSync('promtool', args, { cwd: ROOT, encoding: 'utf8' });

      it('passes `promtool check rules`', () => {
        const checked = promtool('check', 'rules', RULES);
        expect(checked.status, checked.stdout + checked.stderr).toBe(0);
        expect(checked.stdout).toContain(`SUCCESS: ${alerts.length} rules found`);
      });

      it('fires every alert in the unit tests of `promtool test rules`', () => {
        const tested = promtool('test', 'rules', RULE_TESTS);
        expect(tested.status, tested.stdout + tested.stderr).toBe(0);
        const fired = new Set(
          [...readFileSync(RULE_TESTS, 'utf8').matchAll(/alertname: (\w+)\n\s+exp_alerts:/g)].map(
            (m) => m[1],
          ),
        );
        for (const rule of alerts) expect(fired, rule.alert).toContain(rule.alert);
      });
    },
  );
});

describe('the metrics the alerts read, in /metrics', () => {
  let server: TestServer;
  let operatorToken: string;
  beforeAll(async () => {
    server = await startWebhookServer({ env: { PONTE_WEBHOOK_RETRY_BASE_MS: '20' } });
    operatorToken = server.operatorToken;
  }, STARTUP_TIMEOUT_MS);
  afterAll(() => server?.close());

  const scrape = async () => (await server.operator.inject({ method: 'GET', url: '/metrics' })).body;

  it('exports every metric an alert expression reads, with the labelled series of real activity', async () => {
    // a rate in force, a failing webhook endpoint (nothing listens on its port) and an event for it
    const rate = await server.operator.inject({
      method: 'POST',
      url: '/operator/rates',
      payload: { pair: 'BRL/USDC', rate: '0.18' },
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    expect(rate.statusCode).toBe(201);
    const api = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const endpoint = await createEndpoint(api, { url: 'http://127.0.0.1:41999/hooks' });
    expect((await api.post('/customers', individualBody())).statusCode).toBe(201);

    const text = await eventually(scrape, (body) =>
      body.includes(`ponte_webhook_delivery_failures_total{endpoint="${endpoint.id}"}`),
    );
    // the endpoint's id labels its series, never its address (a number in another sample may hold the port's digits)
    expect(text).not.toContain('127.0.0.1:41999');
    expect(text).not.toContain('/hooks');
    expect(text).toMatch(/^ponte_reference_rate_age_seconds\{pair="BRL\/USDC"\} \d/m);
    expect(text).toMatch(/^ponte_db_pool_max_connections [1-9]\d*$/m);
    expect(text).toMatch(/^ponte_db_pool_connections\{state="in_use"\} \d+$/m);
    expect(text).toMatch(/^ponte_outbox_oldest_event_age_seconds \d/m);
    expect(text).toMatch(/^ponte_http_requests_total\{.*status="201"/m);

    // Series of a PSP or a node-backed chain appear once one is configured; the metric itself always is.
    const exported = new Set(
      [...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' || type === 'summary'
          ? [name!, `${name}_bucket`, `${name}_sum`, `${name}_count`]
          : [name!],
      ),
    );
    for (const rule of alerts)
      for (const metric of metricNames(rule.expr!))
        expect(exported.has(metric), `${rule.alert} reads ${metric}, which /metrics does not export`).toBe(
          true,
        );
  });
});

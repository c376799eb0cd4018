/**
 * The service's reads against two baselines on the same data: (a) a bare node:http server answering a
 * fixed body as large as the bank-account answer, (b) a minimal Fastify route doing the same primary-key
 * SELECT through pg. Each server is its own process. Every target is warmed up, then the runs are
 * interleaved (run 1 of every target, then run 2 in reverse order, ...) so that a noisy moment hurts all
 * targets alike; each figure is the median over the runs.
 */
import { authorization, type BenchContext, databaseName, minimalServerEnv, serviceEnv } from './context.ts';
import { median, type RunResult, run, settle, type Target } from './load.ts';
import { freePorts, startChild, waitUntilReady } from './processes.ts';
import { loadWindows, monotonicMicros } from './profile.ts';
import { type Row, resultsTable, statusCodes } from './report.ts';
import { probe, publishedPaths, type RouteSpec, routeSpecs } from './routes.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

function summarise(results: RunResult[]): RunResult {
  const codes: Record<string, number> = {};
  for (const result of results) {
    for (const [code, count] of Object.entries(result.statusCodes)) codes[code] = (codes[code] ?? 0) + count;
  }
  const sum = (pick: (r: RunResult) => number) => results.reduce((acc, r) => acc + pick(r), 0);
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes: codes,
    cpuUs: results.every((r) => r.cpuUs !== undefined) ? median(results.map((r) => r.cpuUs!)) : undefined,
    dbCpuUs: results.every((r) => r.dbCpuUs !== undefined)
      ? median(results.map((r) => r.dbCpuUs!))
      : undefined,
  };
}

/**
 * The body the bare baseline answers: the service's own bank-account answer, or the raw row as the
 * minimal baseline answers it while the service does not serve bank accounts.
 */
async function referenceBody(
  origins: { service?: string; minimal: string },
  path: string,
  headers: Record<string, string>,
): Promise<{ body: string; source: string }> {
  if (origins.service) {
    const response = await fetch(origins.service + path, { headers });
    if (response.ok) return { body: await response.text(), source: "the service's bank-account answer" };
  }
  const response = await fetch(origins.minimal + path, { headers });
  if (!response.ok) throw new Error(`reference body ${origins.minimal}${path}: ${response.status}`);
  return { body: await response.text(), source: 'the raw row: the service does not serve bank accounts yet' };
}

export async function compareRoutes(ctx: BenchContext): Promise<number> {
  const { settings, samples } = ctx;
  const headers = authorization(ctx);
  const service = await serviceEnv(ctx);
  const minimal = await minimalServerEnv(ctx, [settings.minimalDriver]);
  const serviceChild = startChild('service', 'src/main.ts', service.env, settings.profileDir);
  const minimalChild = startChild('minimal baseline', 'bench/servers/minimal.ts', minimal.env);
  await Promise.all([
    waitUntilReady(serviceChild, `${service.origin}/healthz`),
    waitUntilReady(minimalChild, `${minimal.origin}/healthz`),
  ]);

  const published = await publishedPaths(service.origin);
  const specs = routeSpecs(samples, settings).filter(
    (spec) => !settings.only || spec.name.includes(settings.only),
  );
  const present = specs.filter((spec) => published.has(spec.openapiPath));
  const missing = specs.filter((spec) => !published.has(spec.openapiPath));
  for (const spec of missing) log(`NOT MEASURED: ${spec.name} is not served yet (absent from /openapi.json)`);

  let failed = missing.length > 0;
  const usable: RouteSpec[] = [];
  for (const spec of present) {
    const problems = await probe(service.origin, headers, spec);
    if (problems.length === 0) usable.push(spec);
    else {
      failed = true;
      log(`FAILED CHECK: ${spec.name} over ${spec.paths.length} sampled paths:\n  ${problems.join('\n  ')}`);
    }
  }
  if (usable.length > 0) log(`checked every sampled path of ${usable.length} route(s): all 200 as expected`);

  const accountPath = `/bank-accounts/${samples.bankAccounts[0]}`;
  const reference = await referenceBody(
    {
      ...(published.has('/bank-accounts/{id}') ? { service: service.origin } : {}),
      minimal: minimal.origin,
    },
    accountPath,
    headers,
  );
  const body = reference.body;
  log(`bare baseline body: ${Buffer.byteLength(body)} bytes (${reference.source})`);
  const [barePort] = await freePorts(1);
  const bareChild = startChild('bare baseline', 'bench/servers/bare.ts', {
    BENCH_PORT: String(barePort),
    BENCH_BODY: body,
  });
  const bareOrigin = `http://127.0.0.1:${barePort}`;
  await waitUntilReady(bareChild, `${bareOrigin}/`);

  const bankAccountPaths = samples.bankAccounts.map((id) => `/bank-accounts/${id}`);
  const targets: (Target & { spec?: RouteSpec })[] = [
    {
      name: 'baseline (a) node:http fixed body',
      origin: bareOrigin,
      paths: [accountPath],
      headers,
      pid: bareChild.process.pid,
    },
    {
      name: `baseline (b) Fastify + ${settings.minimalDriver} PK SELECT`,
      origin: minimal.origin,
      paths: bankAccountPaths,
      headers,
      pid: minimalChild.process.pid,
      database: databaseName(ctx),
    },
    // the list baselines: each list's page SELECT alone on the minimal server
    ...usable.flatMap((spec) =>
      spec.baseline
        ? [
            {
              name: spec.baseline.name,
              origin: minimal.origin,
              paths: spec.baseline.paths,
              headers,
              pid: minimalChild.process.pid,
              database: databaseName(ctx),
            },
          ]
        : [],
    ),
    ...usable.map((spec) => ({
      name: spec.name,
      origin: service.origin,
      paths: spec.paths,
      headers,
      spec,
      pid: serviceChild.process.pid,
      database: databaseName(ctx),
    })),
  ];

  const { connections, warmupSeconds, rewarmSeconds, runSeconds, runs } = settings;
  log(`\nwarm-up: ${warmupSeconds} s per target, ${connections} connections`);
  const results = new Map<string, RunResult[]>(targets.map((t) => [t.name, []]));
  const warmups = new Map<string, RunResult[]>(targets.map((t) => [t.name, []]));
  for (const target of targets) {
    await settle();
    const warm = await run(target, connections, warmupSeconds);
    warmups.get(target.name)!.push(warm);
    log(`  ${target.name}: ${warm.rps.toFixed(0)} req/s${warm.non2xx ? `, non-2xx ${warm.non2xx}` : ''}`);
  }
  for (let i = 1; i <= runs; i++) {
    log(
      `run ${i} of ${runs}: ${runSeconds} s per target` +
        (rewarmSeconds ? `, each after ${rewarmSeconds} s of unmeasured load` : ''),
    );
    // Every other run goes through the targets in reverse, so that no target always follows the same one.
    for (const target of i % 2 === 1 ? targets : [...targets].reverse()) {
      // The other targets ran meanwhile: a second of load first brings this server's pool and caches
      // back to where they were (pg closes connections idle for 30 s), so every run starts alike.
      await settle();
      if (rewarmSeconds) warmups.get(target.name)!.push(await run(target, connections, rewarmSeconds));
      const from = monotonicMicros();
      const result = await run(target, connections, runSeconds);
      if (target.origin === service.origin) loadWindows.push([from, monotonicMicros()]);
      results.get(target.name)!.push(result);
      log(
        `  ${target.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms` +
          (result.cpuUs === undefined ? '' : `, server CPU ${result.cpuUs.toFixed(0)} µs/req`) +
          (result.dbCpuUs === undefined ? '' : `, PostgreSQL CPU ${result.dbCpuUs.toFixed(0)} µs/req`) +
          (result.non2xx ? `, non-2xx ${result.non2xx}` : ''),
      );
    }
  }

  const summaries = new Map(targets.map((t) => [t.name, summarise(results.get(t.name)!)]));
  const bare = summaries.get(targets[0]!.name)!;
  const minimalResult = summaries.get(targets[1]!.name)!;
  let belowTarget = false;
  const rows: Row[] = targets.map((target, index) => {
    const summary = summaries.get(target.name)!;
    const row: Row = { name: target.name, summary, runs };
    if (index >= 1) row.versusBare = summary.rps / bare.rps;
    if (!target.spec) return row;
    // a read by id against baseline (b), a list against the page query of its own baseline
    const baseline = target.spec.baseline ? summaries.get(target.spec.baseline.name)! : minimalResult;
    const goal = target.spec.baseline ? settings.listTarget : settings.target;
    row.versusMinimal = summary.rps / baseline.rps;
    if (summary.cpuUs && baseline.cpuUs) row.cpuVersusMinimal = baseline.cpuUs / summary.cpuUs;
    const ok = row.versusMinimal >= goal;
    belowTarget ||= !ok;
    row.verdict = ok ? `ok (>= ${goal})` : `BELOW ${goal}`;
    return row;
  });

  log(`\nResults (median of ${runs} run(s) of ${runSeconds} s, ${connections} connections)\n`);
  log(resultsTable(rows));

  const broken = targets.filter((t) => {
    const s = summaries.get(t.name)!;
    const w = summarise(warmups.get(t.name)!);
    return s.non2xx + s.errors + s.timeouts + w.non2xx + w.errors + w.timeouts > 0;
  });
  for (const target of broken) {
    const s = summaries.get(target.name)!;
    const w = summarise(warmups.get(target.name)!);
    log(
      `\nFAILED: ${target.name} answered non-2xx or failed (runs: ${statusCodes(s)}; errors ${s.errors}, ` +
        `timeouts ${s.timeouts}; warm-up: ${statusCodes(w)}; errors ${w.errors}, timeouts ${w.timeouts})`,
    );
  }
  for (const child of [serviceChild, minimalChild, bareChild]) {
    if (!child.exit()) continue;
    failed = true;
    log(`\nFAILED: the ${child.name} process ${child.exit()} during the run`);
  }
  if (broken.some((t) => t.origin === service.origin)) {
    log(`\nservice output (last lines):\n${serviceChild.output() || '(none)'}`);
  }
  failed ||= broken.length > 0;
  if (failed) {
    log('\nBENCHMARK FAILED: see the lines marked FAILED / NOT MEASURED above.');
    return 1;
  }
  if (belowTarget) {
    log(
      `\nTARGET MISSED: a read by id below ${settings.target} of baseline (b), or a list below ` +
        `${settings.listTarget} of its page-query baseline.`,
    );
    return 2;
  }
  if (!usable.some((spec) => spec.byId)) log('\nNo read by id of the service was measured (BENCH_ONLY).');
  else
    log(
      `\nAll reads by id reach at least ${settings.target} of baseline (b), every list ${settings.listTarget} ` +
        'of its page-query baseline; no non-2xx answers.',
    );
  return 0;
}

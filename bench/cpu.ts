/**
 * CPU time (user + system) spent by the server under load and by the PostgreSQL backends serving the
 * benchmark database, read from /proc (Linux; elsewhere the figures are simply absent). Other load on the
 * machine disturbs these far less than it disturbs throughput.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** CPU seconds used so far by a process, or undefined when it cannot be read. */
export function processCpu(pid: number): number | undefined {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    // the fields after the command name (in parentheses, and it may contain spaces): state, ppid, ...;
    // utime and stime are the 14th and 15th fields of the line
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by each PostgreSQL backend connected to `database` (a backend's process title
 * is "postgres: <user> <database> <client> <state>").
 */
function databaseCpu(database: string): Map<number, number> | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const backends = new Map<number, number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!title.startsWith('postgres: ') || !title.includes(` ${database} `)) continue;
      const cpu = processCpu(Number(entry));
      if (cpu !== undefined) backends.set(Number(entry), cpu);
    } catch {
      // the process ended meanwhile
    }
  }
  return backends;
}

export type CpuUse = { server: number | undefined; database: number | undefined };

/** Starts measuring; `read()` gives the CPU seconds used since then (and may be called repeatedly). */
export function cpuMeter(pid: number | undefined, database: string | undefined) {
  let server = pid === undefined ? undefined : processCpu(pid);
  let backends = database === undefined ? undefined : databaseCpu(database);
  return {
    read(): CpuUse {
      const serverNow = pid === undefined ? undefined : processCpu(pid);
      const backendsNow = database === undefined ? undefined : databaseCpu(database);
      let databaseUsed: number | undefined;
      if (backends && backendsNow) {
        // backends that started meanwhile count from zero; those that ended are lost (a second of
        // unmeasured load before each run keeps the pool open, so that is rare)
        databaseUsed = 0;
        for (const [backend, cpu] of backendsNow) databaseUsed += cpu - (backends.get(backend) ?? 0);
      }
      const used = {
        server: server === undefined || serverNow === undefined ? undefined : serverNow - server,
        database: databaseUsed,
      };
      server = serverNow;
      backends = backendsNow;
      return used;
    },
  };
}

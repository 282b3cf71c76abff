import { readdirSync, readFileSync } from 'node:fs';

/** CPU ticks of each PostgreSQL process of this machine now (Linux /proc; the bench's database runs here). */
function postgresTicks(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(f[11]) + Number(f[12]));
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

/**
 * CPU seconds the PostgreSQL processes used since `start()`: per process, so that a process
 * that ends meanwhile (an autovacuum worker, a closed connection) does not subtract its whole
 * life from the sum; what it used in the span is lost with it.
 */
export function postgresCpu() {
  const before = postgresTicks();
  return {
    seconds(): number {
      let ticks = 0;
      for (const [pid, t] of postgresTicks()) ticks += t - (before.get(pid) ?? 0);
      return ticks / 100;
    },
  };
}

/** CPU seconds of this process since `since` (process.cpuUsage()). */
export const processCpuS = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

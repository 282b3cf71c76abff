import { isConnectionError } from '../db/outage.js';

/**
 * The console's metrics in Prometheus's text format (`GET /metrics`, docs/operations.md).
 * Counters and summaries live here; figures owned elsewhere (the writer's counts, the notice
 * queue) are read at scrape time by collectors.
 */

type Labels = Record<string, string>;
const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort());
const fmt = (labels: Labels) => {
  const e = Object.entries(labels);
  return e.length ? `{${e.map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}` : '';
};

interface Family {
  help: string;
  type: 'counter' | 'gauge' | 'summary';
  series: Map<string, { labels: Labels; value: number; count?: number }>;
}

export type Collector = () => Promise<{ name: string; help: string; type: 'counter' | 'gauge'; values: { labels?: Labels; value: number }[] }[]>;

export class Metrics {
  private families = new Map<string, Family>();
  private collectors: Collector[] = [];

  private family(name: string, help: string, type: Family['type']) {
    let f = this.families.get(name);
    if (!f) this.families.set(name, (f = { help, type, series: new Map() }));
    return f;
  }

  /** Adds n to a counter (or, for a gauge, moves it by n). */
  add(name: string, help: string, labels: Labels = {}, n = 1, type: 'counter' | 'gauge' = 'counter') {
    const s = this.family(name, help, type).series;
    const k = key(labels);
    const cur = s.get(k);
    if (cur) cur.value += n;
    else s.set(k, { labels, value: n });
  }

  /** One observation of a summary: its _sum and _count. */
  observe(name: string, help: string, labels: Labels, value: number) {
    const s = this.family(name, help, 'summary').series;
    const k = key(labels);
    const cur = s.get(k);
    if (!cur) return void s.set(k, { labels, value, count: 1 });
    cur.value += value;
    cur.count = (cur.count ?? 0) + 1;
  }

  collect(c: Collector) {
    this.collectors.push(c);
  }

  async render(): Promise<string> {
    const lines: string[] = [];
    for (const [name, f] of this.families) {
      lines.push(`# HELP ${name} ${f.help}`, `# TYPE ${name} ${f.type}`);
      for (const s of f.series.values()) {
        if (f.type === 'summary') lines.push(`${name}_sum${fmt(s.labels)} ${s.value}`, `${name}_count${fmt(s.labels)} ${s.count ?? 0}`);
        else lines.push(`${name}${fmt(s.labels)} ${s.value}`);
      }
    }
    for (const c of this.collectors) {
      // A collector that needs the database is skipped while it is away: the faults and the
      // in-process figures are what an operator needs most then.
      const families = await c().catch((err: unknown) => {
        if (isConnectionError(err)) return [];
        throw err;
      });
      for (const m of families) {
        lines.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`);
        for (const v of m.values) lines.push(`${m.name}${fmt(v.labels ?? {})} ${v.value}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

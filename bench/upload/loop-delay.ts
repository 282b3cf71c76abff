/**
 * Loaded into the console by bomb.bench.ts (`node --import`): its event loop's longest delay,
 * longest garbage-collection pause and CPU time, measured inside the process, so that a slow
 * /healthz can be told apart from a busy machine. Asked 'loop' over the IPC channel, it answers
 * them since the last ask.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
let gcMaxMs = 0;
let cpu = process.cpuUsage();
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, e.duration);
}).observe({ entryTypes: ['gc'] });
process.on('message', (m) => {
  if (m !== 'loop') return;
  const used = process.cpuUsage(cpu);
  process.send?.({ loopMaxMs: delay.max / 1e6, gcMaxMs, cpuMs: (used.user + used.system) / 1000 });
  delay.reset();
  gcMaxMs = 0;
  cpu = process.cpuUsage();
});

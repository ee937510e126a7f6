/**
 * The soak case's server (bench/soak.ts): the Express example, configured by the environment
 * as `npm start` is, with its event loop watched by `perf_hooks.monitorEventLoopDelay`
 * (10 ms resolution). Each SIGUSR2 ends a window: one line on stdout,
 * `soak-window {"seq":…,"window":{…},"total":{…},"rssMb":…}`, with the window's delay
 * figures in ms and the whole run's since the first signal; the driver sends it at the start of
 * the measured run and at the end of each minute, so windows are the driver's minutes.
 * A signal rather than a timer of the server's own: a blocked loop delays the line, never
 * shifts the window.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** The monitor's sampling interval: its values include it (an idle loop reads about 10.1 ms). */
const RESOLUTION_MS = 10;

// Two monitors: an interval histogram cannot be added to another (Node takes only recordable ones).
const window = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
const total = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
window.enable();
total.enable();
let seq = 0;

const ms = (ns: number) => Math.round(ns / 1e4) / 100;
const mb = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;
const figures = (h: IntervalHistogram) => ({
  count: h.count,
  p50: ms(h.percentile(50)),
  p99: ms(h.percentile(99)),
  max: ms(h.max),
  mean: ms(h.mean),
});

// V8's heap used, read every second: its least value in a window is about what is left after the
// collector's full passes, the figure that grows when something leaks (RSS swings by tens of MB
// with the collector's phase, and V8 keeps pages it freed).
let heapFloor = Infinity;
let heapPeak = 0;
setInterval(() => {
  const used = process.memoryUsage().heapUsed;
  heapFloor = Math.min(heapFloor, used);
  heapPeak = Math.max(heapPeak, used);
}, 1000).unref();

process.on('SIGUSR2', () => {
  // The first signal starts the measured run: what came before (start-up, warm-up) is dropped.
  if (seq === 0) total.reset();
  const memory = process.memoryUsage();
  const line = {
    seq: seq++,
    resolutionMs: RESOLUTION_MS,
    window: figures(window),
    total: figures(total),
    rssMb: mb(memory.rss),
    heapUsedMb: mb(memory.heapUsed),
    heapFloorMb: mb(Math.min(heapFloor, memory.heapUsed)),
    heapPeakMb: mb(Math.max(heapPeak, memory.heapUsed)),
  };
  window.reset();
  heapFloor = Infinity;
  heapPeak = 0;
  process.stdout.write(`soak-window ${JSON.stringify(line)}\n`);
});

await import('../examples/express/server.js');

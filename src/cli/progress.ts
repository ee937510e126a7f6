import cliProgress from 'cli-progress';
import { printLine } from './output.js';

/** Reports how far a long piece of work has come. */
export interface Progress {
  update(done: number): void;
  stop(): void;
}

/** A bar that flashes by for work done in less than this would only be noise. */
const BAR_DELAY_MS = 1000;

/**
 * A progress report over `total` items called `unit`: on a terminal, a bar once the work has
 * taken a second; when stdout is a pipe or a file, plain lines (a redrawn bar would fill a log
 * with control characters).
 */
export function startProgress(total: number, unit: string, stream: NodeJS.WriteStream = process.stdout): Progress {
  if (!stream.isTTY) {
    return {
      update: (done) => printLine(`${unit}: ${done}/${total}`),
      stop: () => undefined,
    };
  }
  // Checked on each update rather than by a timer: the SQLite driver is synchronous, so no timer
  // fires while it seeds.
  const started = performance.now();
  let bar: cliProgress.SingleBar | undefined;
  return {
    update(done) {
      if (!bar && performance.now() - started >= BAR_DELAY_MS) {
        // The cursor stays visible: hidden, it would stay hidden after a Ctrl-C.
        bar = new cliProgress.SingleBar(
          { stream, format: `${unit} {bar} {value}/{total} | {percentage}% | {eta_formatted} left` },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done);
      }
      bar?.update(done);
    },
    stop() {
      bar?.stop();
    },
  };
}

// Progress of long CLI work (import, export, demo load). On a terminal: a bar with total, percent, rate and ETA
// (cli-progress) when the total is known, else the count and rate; `stop()` clears the line, so the summary line
// that follows starts clean. Not on a terminal: nothing while running (the command prints one summary line).
import { SingleBar } from 'cli-progress';

export interface Progress {
  /** The work done so far (and the total, once it is known). */
  update(done: number, total?: number): void;
  /** Ends the display; call before printing the summary. */
  stop(): void;
}

const SILENT: Progress = { update: () => {}, stop: () => {} };

/**
 * `label`: what is counted (e.g. "import"), `unit`: of the count (records, rows, MB). `stream`: where to draw
 * (stderr; a non-TTY stream gets nothing).
 */
export function progressBar(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return SILENT;
  const started = Date.now();
  let bar: SingleBar | undefined;
  let withTotal = false;
  const rate = (done: number) => {
    const seconds = (Date.now() - started) / 1000;
    return seconds > 0 ? Math.round(done / seconds).toLocaleString('en') : '-';
  };
  return {
    update(done, total) {
      if (!bar) {
        withTotal = total !== undefined && total > 0;
        bar = new SingleBar({
          stream,
          format: withTotal
            ? `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted}`
            : `${label}: {value} ${unit} | {rate} ${unit}/s | {duration_formatted}`,
          barsize: 30,
          hideCursor: true,
          clearOnComplete: true,
          etaBuffer: 50,
          fps: 10,
          formatValue: (value, _options, type) =>
            type === 'value' || type === 'total' ? value.toLocaleString('en') : String(value),
        });
        bar.start(withTotal ? total! : 0, done, { rate: rate(done) });
      }
      if (withTotal && total !== undefined) bar.setTotal(total);
      bar.update(done, { rate: rate(done) });
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}

export interface Progress {
  /** Prints a line above the live status (or just a line, when not on a terminal). */
  log(line: string): void;
  /** Redraws now. */
  update(): void;
  stop(): void;
}

/**
 * A live status line: redrawn in place every `intervalMs` on a terminal; on a pipe or a CI log a
 * plain line every `plainEveryMs`, so logs stay readable. `render` may return several lines.
 */
/** Where progress goes: a terminal, a pipe, or anything with write (a test's buffer). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export function startProgress(options: {
  stream?: ProgressStream;
  render: () => string;
  intervalMs?: number;
  plainEveryMs?: number;
}): Progress {
  const stream = options.stream ?? process.stdout;
  const tty = stream.isTTY === true;
  let drawn = 0;
  let lastPlain = 0;
  const clear = () => {
    if (!tty || drawn === 0) return;
    stream.write(`\x1b[${drawn}F\x1b[0J`);
    drawn = 0;
  };
  const draw = () => {
    const text = options.render();
    if (tty) {
      clear();
      stream.write(`${text}\n`);
      drawn = text.split("\n").length;
    } else if (Date.now() - lastPlain >= (options.plainEveryMs ?? 5_000)) {
      lastPlain = Date.now();
      stream.write(`${text}\n`);
    }
  };
  const timer = setInterval(draw, tty ? (options.intervalMs ?? 500) : 1_000);
  timer.unref();
  return {
    log(line) {
      clear();
      stream.write(`${line}\n`);
      if (tty) draw();
    },
    update: draw,
    stop() {
      clearInterval(timer);
      if (tty) draw();
    },
  };
}

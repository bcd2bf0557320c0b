// What every server bench shares so that it cannot rot quietly: `--smoke` (a run at a tiny size, in
// seconds, that checks the bench still works; its figures mean nothing), and the verdict. A bench
// collects its problems (a refused or failed request, a figure computed from no samples, an audit
// that fails) and ends with `finish`: any problem prints "FAILED: …" and exits non-zero, so neither
// a smoke run in `npm test` (apps/server/bench/benches.test.ts) nor a full run can print a goal
// verdict over requests the app never served.

export const isSmoke = process.argv.includes('--smoke');

/**
 * Smoke sizes as defaults of the bench's BENCH_* variables (set before the bench reads them, and
 * inherited by the child processes it forks); a variable set by the caller wins.
 */
export function smokeDefaults(values: Record<string, string>): void {
  if (!isSmoke) return;
  for (const [name, value] of Object.entries(values)) process.env[name] ??= value;
}

export class Problems {
  private readonly list: string[] = [];

  /** Records `problem` unless `isOk`. */
  check(isOk: boolean, problem: string): void {
    if (!isOk) this.list.push(problem);
  }

  /** A figure needs samples: none is a problem, not a zero or a NaN. */
  samples(count: number, what: string): void {
    this.check(count > 0, `no ${what}: the figures would be computed from nothing`);
  }

  get count(): number {
    return this.list.length;
  }

  /** Prints the verdict and sets the exit code: non-zero on any problem. */
  finish(name: string): void {
    if (this.list.length === 0) {
      console.info(`${name}: OK${isSmoke ? ' (smoke run: sizes too small for figures)' : ''}`);
      return;
    }
    console.error(`${name}: FAILED: ${this.list.join('; ')}`);
    process.exitCode = 1;
  }
}

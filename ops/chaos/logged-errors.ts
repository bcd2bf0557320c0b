// What the instances themselves logged as errors during a chaos run, for the report: a 500 the run
// saw says only INTERNAL (5xx answers never carry the error's text), and the cluster's folder with
// the logs is gone when the run ends. The server logs a failed request at pino's level 50 ("request
// failed", with its error), and a background job's failure or a dependency's outage on the console
// (lines that are not JSON, errors and the notes beside them alike); both are gathered here.

/** One error an instance logged. */
export interface LoggedError {
  instance: string;
  /** Milliseconds since the epoch; a console line has none of its own and takes the last JSON line's. */
  at: number;
  /** The request's method and URL when the line belongs to one ("POST /api/v1/trade/order"). */
  request: string | null;
  message: string;
  /** The error's own lines (type, code, message, the first frames of its stack). */
  detail: string[];
}

interface PinoLine {
  level?: number;
  time?: number;
  reqId?: string;
  msg?: string;
  req?: { method?: string; url?: string };
  err?: { type?: string; message?: string; code?: string; stack?: string; cause?: unknown };
}

const stackFrames = 4;

/** Parses one instance's log text (pino JSON lines with console output between them). */
export function parseLoggedErrors(instance: string, text: string, since: number): LoggedError[] {
  const errors: LoggedError[] = [];
  const requests = new Map<string, string>();
  let lastTime = 0;
  let consoleBlock: LoggedError | null = null;
  let hasFrames = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('{')) {
      consoleBlock = null;
      let entry: PinoLine;
      try {
        entry = JSON.parse(line) as PinoLine;
      } catch {
        continue;
      }
      lastTime = entry.time ?? lastTime;
      if (entry.reqId && entry.req?.method && entry.req.url) requests.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
      if ((entry.level ?? 0) < 50 || lastTime < since) continue;
      errors.push({
        instance,
        at: lastTime,
        request: (entry.reqId && requests.get(entry.reqId)) ?? null,
        message: entry.msg ?? '',
        detail: entry.err ? errorLines(entry.err) : [],
      });
    } else if (line.trim() !== '' && lastTime >= since) {
      // Console output: a message, then, when it printed an error, the rest of the error's message
      // and its lines (indented frames, "}", "[cause]: …"). A line at the margin begins the next
      // message unless it continues an error's message (a failed query's "params: …").
      const isFrame = /^\s/.test(line) || /^\}|^\[cause\]/.test(line);
      const continuesError = consoleBlock !== null && !hasFrames && /\w*Error\b/.test(consoleBlock.message);
      if (consoleBlock && (isFrame || continuesError)) {
        hasFrames ||= isFrame;
        if (consoleBlock.detail.length < stackFrames + 2) consoleBlock.detail.push(line.trim());
        continue;
      }
      consoleBlock = { instance, at: lastTime, request: null, message: line.trim(), detail: [] };
      hasFrames = false;
      errors.push(consoleBlock);
    }
  }
  return errors;
}

function errorLines(err: NonNullable<PinoLine['err']>): string[] {
  // An error's message may run over several lines (viem's names the URL and the request): its first.
  const head = [err.type, err.code, err.message?.split('\n')[0]].filter(Boolean).join(' ');
  const frames = (err.stack ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('at '))
    .slice(0, stackFrames);
  const cause = err.cause && typeof err.cause === 'object' ? (err.cause as { message?: string; code?: string }) : null;
  return [head, ...frames, ...(cause ? [`cause: ${[cause.code, cause.message].filter(Boolean).join(' ')}`] : [])];
}

/**
 * The report's lines for them: the same message (its request and first line) once, with how often
 * and where it came, in order of its first time; the first `max` such, each with its detail indented.
 */
export function formatLoggedErrors(errors: LoggedError[], max = 12): string[] {
  if (errors.length === 0) return ['The instances logged no error and printed nothing beside their request log.'];
  const groups = new Map<string, { first: LoggedError; count: number; instances: Set<string> }>();
  for (const e of errors) {
    const key = `${e.request ?? ''} ${e.message}`;
    const group = groups.get(key) ?? { first: e, count: 0, instances: new Set<string>() };
    group.count += 1;
    group.instances.add(e.instance);
    groups.set(key, group);
  }
  const shown = [...groups.values()].slice(0, max);
  const lines = [
    `The instances logged ${errors.length} error(s) and console line(s), ${groups.size} different${groups.size > max ? `; the first ${max}` : ''}:`,
  ];
  for (const { first, count, instances } of shown) {
    const time = new Date(first.at).toISOString().slice(11, 23);
    const times = count > 1 ? ` (×${count})` : '';
    lines.push(`- ${time} ${[...instances].join(', ')}${first.request ? ` ${first.request}` : ''}: ${first.message}${times}`);
    for (const d of first.detail) lines.push(`    ${d}`);
  }
  return lines;
}

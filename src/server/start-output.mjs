/**
 * What `npm start` (scripts/start.mjs) and the server (src/server/main.ts) print while they start
 * and stop, and the server's command line. Plain JavaScript (typed by JSDoc): scripts/start.mjs
 * runs it without a transpiler.
 *
 * Format — one rule for every line of the process:
 *   - stdout is a terminal: human lines; steps and outcomes on stdout, warnings and errors on
 *     stderr. The request log is pino-pretty's (app.ts) on the same terminal.
 *   - stdout is not a terminal (a pipe, a file, systemd's journal, the tests): every line on
 *     stdout is one pino-style JSON object `{"level","time","pid","hostname","msg"}` — the shape
 *     of the server's own log lines there (app.ts), so a log collector reads one format. The
 *     builds' own output (Vite, esbuild) is wrapped the same way. Only a start that fails
 *     additionally writes its one plain line to stderr, the line an operator or systemd shows.
 *
 * Language — by kind of line, the same on a terminal and in the JSON `msg`:
 *   - step lines, `[启动 1.2s] …`, `[准备] …`, `[停止 0.3s] …` (what is being done now, many of
 *     them reported by deeper modules): Chinese, the operator's language;
 *   - outcome lines (the ready banner, the mode, warnings, a failure, how a shutdown ended):
 *     Chinese, then ` / `, then English, so either language finds them in a log.
 */
import { hostname } from 'node:os';

/** Human lines (a terminal) or JSON lines (anything else). */
export const humanOutput = Boolean(process.stdout.isTTY);

/** pino's level numbers. */
const LEVELS = /** @type {const} */ ({ info: 30, warn: 40, error: 50, fatal: 60 });

/** @typedef {keyof typeof LEVELS} Level */

let host = '';

/**
 * One pino-style JSON line.
 * @param {Level} level
 * @param {string} message
 */
export function jsonLine(level, message) {
  host ||= hostname();
  return `${JSON.stringify({ level: LEVELS[level], time: Date.now(), pid: process.pid, hostname: host, msg: message })}\n`;
}

/**
 * Prints one line (a message may hold several, as one entry): plain on a terminal, JSON otherwise.
 * @param {string} message
 * @param {Level} [level]
 */
export function say(message, level = 'info') {
  if (!humanOutput) process.stdout.write(jsonLine(level, message));
  else if (level === 'info') process.stdout.write(`${message}\n`);
  else process.stderr.write(`${message}\n`);
}

/**
 * The one line of a start that cannot go on: plain on stderr always (an operator's terminal,
 * systemd's status), and as a `fatal` JSON entry on stdout when that is not a terminal.
 * @param {string} line
 */
export function sayFatal(line) {
  if (!humanOutput) process.stdout.write(jsonLine('fatal', line));
  process.stderr.write(`${line}\n`);
}

/**
 * Forwards a child process's output (a build) line by line as JSON entries: stdout as `info`,
 * stderr as `warn`. Only when not on a terminal (there the child inherits it).
 * @param {import('node:child_process').ChildProcess} child
 */
export function forwardAsJson(child) {
  /** @param {import('node:stream').Readable | null} stream @param {Level} level */
  const forward = (stream, level) => {
    if (!stream) return;
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (/** @type {string} */ chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) say(line, level);
    });
    stream.on('end', () => {
      if (rest.trim()) say(rest, level);
    });
  };
  forward(child.stdout, 'info');
  forward(child.stderr, 'warn');
}

/**
 * The server's command line (`npm start`, `npm run serve`, `bin/portal start`): settings come from
 * the environment, so the options are only `--help` and the internal steps of `npm start`.
 * @param {string} name how it was run
 * @param {Record<string, import('./command-line.mjs').OptionSpec>} [options]
 * @returns {import('./command-line.mjs').CommandSpec}
 */
export function serverCommand(name, options = {}) {
  return {
    name,
    bilingual: true,
    summary: [
      '启动门户：API 与构建好的前端，地址 http://HOST:PORT。设置均来自环境变量（离线安装包中还可写在 etc/portal.env），全部设置见 docs/configuration.md。',
      'Starts the portal: the API and the built front end on http://HOST:PORT. Every setting comes from the environment (in the offline package also etc/portal.env); docs/configuration.md lists them all.',
    ],
    options,
    env: [
      ['PORT, HOST', '监听端口与地址（默认 8080, 127.0.0.1）/ the port and address (default 8080, 127.0.0.1)'],
      ['DATABASE_URL', 'PostgreSQL；未设置时用内置数据库 / unset: the embedded database'],
      ['PORTAL_DATA_DIR', "内置数据库目录（默认 ./data）/ the embedded database's directory (default ./data)"],
      ['PORTAL_DEMO', 'auto | on | off：空数据库是否写入演示账号 / demo accounts in an empty database'],
      ['LOG_LEVEL', 'silent | error | warn | info | debug'],
    ],
    examples: ['npm start', 'PORT=9000 DATABASE_URL=postgres://portal@db/portal PORTAL_DEMO=off npm start', 'bin/portal start'],
  };
}

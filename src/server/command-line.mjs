/**
 * The command lines of the project's tools (scripts/*.ts, scripts/start.mjs, the server's own
 * flags): one place for `--help`, argument errors and their exit status, over Node's
 * util.parseArgs in strict mode. Plain JavaScript (typed by JSDoc) so scripts/start.mjs, which
 * runs without a transpiler, shares it with the TypeScript tools.
 *
 * A tool describes itself (what it does, its options, positional arguments, environment,
 * examples); `parseCommandLine` then answers `-h` / `--help` with that text on stdout (exit 0),
 * and a wrong argument (an unknown option, a missing value, a number that is not one, a path that
 * does not exist, a positional too many or too few) with ONE line on stderr naming the tool and
 * pointing at `--help` (exit 2, no stack trace). Tools an operator runs speak Chinese and English
 * (`bilingual`); the developer tools speak English.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** Exit status of a command line that cannot be understood. */
export const EXIT_USAGE = 2;

/**
 * @typedef {object} OptionSpec
 * @property {'string' | 'boolean'} type
 * @property {string} [short]
 * @property {string} [value] the value's placeholder in the help text (`--out <dir>`)
 * @property {string} description
 * @property {'int' | 'positive'} [number] a string option that must be a whole number, or one ≥ 1
 * @property {'file' | 'dir' | 'any'} [path] a string option naming a path that must exist
 */

/**
 * @typedef {object} PositionalSpec
 * @property {string} name
 * @property {string} description
 * @property {boolean} [required] default false: the argument may be left out
 * @property {'file' | 'dir' | 'any'} [path] a path that must exist
 * @property {boolean} [variadic] the last positional only: any number of them
 */

/**
 * @typedef {object} CommandSpec
 * @property {string} name how it is run: `npm run seed`, `bin/portal start`
 * @property {string[]} summary what it does, one paragraph per entry
 * @property {Record<string, OptionSpec>} [options]
 * @property {PositionalSpec[]} [positionals]
 * @property {[string, string][]} [env] environment variables it reads: [name, meaning]
 * @property {string[]} [examples]
 * @property {boolean} [bilingual] messages in Chinese and English (tools run by an operator)
 */

/**
 * @typedef {object} ParsedCommandLine
 * @property {Record<string, string | boolean | undefined>} values
 * @property {string[]} positionals
 */

/**
 * How the operator runs a tool: `bin/portal <command>` when this process is a bundle of the offline
 * package (`<home>/dist/<name>.mjs` beside `<home>/bin/portal`), else its npm script.
 * @param {string} npmName e.g. `npm run backup`
 * @param {string} portalCommand e.g. `backup`
 */
export function toolName(npmName, portalCommand) {
  const entry = process.argv[1] ?? '';
  const packaged = /[\\/]dist[\\/][^\\/]+\.mjs$/.test(entry) && existsSync(join(dirname(entry), '..', 'bin', 'portal'));
  return packaged ? `bin/portal ${portalCommand}` : npmName;
}

/** A wrong command line: its one line (the tool's name is prefixed when printed). */
export class UsageError extends Error {}

/**
 * @param {CommandSpec} spec
 * @param {string} zh
 * @param {string} en
 */
const say = (spec, zh, en) => (spec.bilingual ? `${zh} / ${en}` : en);

/** `npm run x` takes its arguments after `--`. @param {CommandSpec} spec */
const argsAfter = (spec) => (spec.name.startsWith('npm run ') || spec.name === 'npm start' ? `${spec.name} --` : spec.name);

/**
 * @param {string} name
 * @param {OptionSpec} option
 */
function optionLabel(name, option) {
  const short = option.short ? `-${option.short}, ` : '';
  return `${short}--${name}${option.type === 'string' ? ` <${option.value ?? 'value'}>` : ''}`;
}

/**
 * The `--help` text.
 * @param {CommandSpec} spec
 * @returns {string}
 */
export function helpText(spec) {
  /** @type {Record<string, OptionSpec>} */
  const options = { ...spec.options, help: { type: 'boolean', short: 'h', description: say(spec, '显示本帮助', 'show this help') } };
  const positionals = spec.positionals ?? [];
  const hasArgs = Object.keys(spec.options ?? {}).length > 0 || positionals.length > 0;
  const synopsis = [
    hasArgs ? argsAfter(spec) : spec.name,
    ...(Object.keys(spec.options ?? {}).length > 0 ? ['[options]'] : []),
    ...positionals.map((p) => `${p.required ? `<${p.name}>` : `[${p.name}]`}${p.variadic ? '...' : ''}`),
  ].join(' ');
  /** @type {[string, string][]} */
  const rows = [
    ...positionals.map((p) => /** @type {[string, string]} */ ([`<${p.name}>`, p.description])),
    ...Object.entries(options).map(([name, o]) => /** @type {[string, string]} */ ([optionLabel(name, o), o.description])),
  ];
  const width = Math.min(32, Math.max(...rows.map(([label]) => label.length)) + 2);
  /** @param {[string, string][]} list */
  const table = (list) => list.map(([label, text]) => `  ${label.padEnd(width)}${label.length >= width ? `\n  ${' '.repeat(width)}` : ''}${text}`).join('\n');
  const parts = [`${say(spec, '用法', 'Usage')}: ${synopsis}`, spec.summary.join('\n\n'), `${say(spec, '参数', 'Arguments and options')}:\n${table(rows)}`];
  if (spec.env?.length) parts.push(`${say(spec, '环境变量', 'Environment')}:\n${table(spec.env)}`);
  if (spec.examples?.length) parts.push(`${say(spec, '示例', 'Examples')}:\n${spec.examples.map((e) => `  ${e}`).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}

/** The name an error of parseArgs quotes (`'--equipments'`, `'-x'`). @param {string} message */
const quoted = (message) => /'([^']+)'/.exec(message)?.[1] ?? message;

/**
 * @param {CommandSpec} spec
 * @param {string} what
 * @param {string} value
 * @param {'file' | 'dir' | 'any'} kind
 */
function checkPath(spec, what, value, kind) {
  const path = resolve(value);
  if (!existsSync(path)) throw new UsageError(say(spec, `${what}：路径不存在 ${value}`, `${what}: no such file or directory: ${value}`));
  const isDir = statSync(path).isDirectory();
  if (kind === 'dir' && !isDir) throw new UsageError(say(spec, `${what}：不是目录 ${value}`, `${what}: not a directory: ${value}`));
  if (kind === 'file' && isDir) throw new UsageError(say(spec, `${what}：是目录而不是文件 ${value}`, `${what}: a directory, not a file: ${value}`));
}

/**
 * Parses `argv` against `spec`: the values, or 'help'; a wrong argument throws a UsageError.
 * @param {CommandSpec} spec
 * @param {readonly string[]} argv
 * @returns {ParsedCommandLine | 'help'}
 */
export function interpretCommandLine(spec, argv) {
  const declared = spec.options ?? {};
  /** @type {Record<string, { type: 'string' | 'boolean', short?: string }>} */
  const options = { help: { type: 'boolean', short: 'h' } };
  for (const [name, o] of Object.entries(declared)) options[name] = o.short ? { type: o.type, short: o.short } : { type: o.type };
  /** @type {ParsedCommandLine} */
  let parsed;
  try {
    parsed = /** @type {ParsedCommandLine} */ (parseArgs({ args: [...argv], options, strict: true, allowPositionals: true }));
  } catch (err) {
    const code = /** @type {{ code?: string }} */ (err).code;
    const message = /** @type {Error} */ (err).message;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(say(spec, `未知选项 ${quoted(message)}`, `unknown option ${quoted(message)}`));
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /'(-[^' ]+)/.exec(message)?.[1] ?? quoted(message);
      if (/does not take an argument/.test(message)) throw new UsageError(say(spec, `选项 ${option} 不带取值`, `option ${option} takes no value`));
      // `--count -1`: a value that starts with a dash is taken for an option unless written `--count=-1`.
      const dash = /ambiguous/.test(message);
      throw new UsageError(
        say(
          spec,
          `选项 ${option} 缺少取值${dash ? `（以 - 开头的取值写作 ${option}=<取值>）` : ''}`,
          `option ${option} needs a value${dash ? ` (a value starting with "-" is written ${option}=<value>)` : ''}`,
        ),
      );
    }
    throw new UsageError(message.split('\n')[0]);
  }
  if (parsed.values.help) return 'help';
  for (const [name, option] of Object.entries(declared)) {
    const value = parsed.values[name];
    if (typeof value !== 'string') continue;
    if (value === '') throw new UsageError(say(spec, `选项 --${name} 缺少取值`, `option --${name} needs a value`));
    if (option.number) {
      const n = Number(value);
      const ok = /^-?\d+$/.test(value.trim()) && Number.isSafeInteger(n) && (option.number === 'int' || n >= 1);
      const wanted = option.number === 'positive' ? say(spec, '正整数', 'a positive whole number') : say(spec, '整数', 'a whole number');
      if (!ok) throw new UsageError(say(spec, `--${name} 须为${wanted}，而不是 ${value}`, `--${name} takes ${wanted}, not ${JSON.stringify(value)}`));
    }
    if (option.path) checkPath(spec, `--${name}`, value, option.path);
  }
  const positionals = spec.positionals ?? [];
  if (parsed.positionals.length > positionals.length && !positionals.at(-1)?.variadic) {
    const extra = parsed.positionals[positionals.length];
    throw new UsageError(say(spec, `多余的参数 ${extra}`, `unexpected argument ${JSON.stringify(extra)}`));
  }
  positionals.forEach((p, i) => {
    const values = p.variadic ? parsed.positionals.slice(i) : parsed.positionals.slice(i, i + 1);
    if (values.length === 0 && p.required) throw new UsageError(say(spec, `缺少参数 <${p.name}>`, `missing <${p.name}>`));
    if (p.path) for (const value of values) checkPath(spec, `<${p.name}>`, value, /** @type {'file' | 'dir' | 'any'} */ (p.path));
  });
  return parsed;
}

/**
 * The one line a wrong command line gets on stderr.
 * @param {CommandSpec} spec
 * @param {UsageError} err
 */
export const usageLine = (spec, err) => `${spec.name}: ${err.message} (${spec.bilingual ? '用法见 / see' : 'see'} ${argsAfter(spec)} --help)`;

/**
 * The command line of this process: prints the help and exits 0 on `--help`, prints one line and
 * exits 2 on a wrong argument, else returns the values.
 * @param {CommandSpec} spec
 * @param {readonly string[]} [argv]
 * @returns {ParsedCommandLine}
 */
export function parseCommandLine(spec, argv = process.argv.slice(2)) {
  try {
    const parsed = interpretCommandLine(spec, argv);
    if (parsed === 'help') {
      process.stdout.write(helpText(spec));
      process.exit(0);
    }
    return parsed;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${usageLine(spec, err)}\n`);
    process.exit(EXIT_USAGE);
  }
}

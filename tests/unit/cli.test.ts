/**
 * Every command-line tool answers `--help` (status 0, its usage on stdout) and a wrong argument
 * with one line on stderr, status 2 and no stack trace. Each tool is run as `npm run …` runs it
 * (TypeScript through tsx, scripts/start.mjs with plain node, bin/portal with bash), with
 * arguments that are refused while parsing: no database is opened, nothing is built.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { helpText, interpretCommandLine, UsageError, type CommandSpec } from '../../src/server/command-line.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `entry` (a .ts through tsx, a .mjs with node, a shell script with bash); no database is configured. */
function run(entry: string, args: string[]): Promise<Run> {
  const command = entry.endsWith('.ts') ? [process.execPath, '--import', 'tsx', entry] : entry.endsWith('.mjs') ? [process.execPath, entry] : ['bash', entry];
  const env: NodeJS.ProcessEnv = { ...process.env, PORTAL_DATA_DIR: 'memory://', LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  delete env.npm_lifecycle_event;
  const child = spawn(command[0], [...command.slice(1), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
  child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

/** The tools, each with command lines it must refuse. */
const TOOLS: { entry: string; wrong: string[][] }[] = [
  { entry: 'scripts/lint-schemas.ts', wrong: [['/nonexistent'], ['--bogus'], ['schemas', 'extra']] },
  { entry: 'scripts/seed.ts', wrong: [['--equipments', '5'], ['--seed', 'abc'], ['--equipment'], ['--equipment', '0']] },
  { entry: 'scripts/bench/all.ts', wrong: [['--bogus'], ['no-such-bench']] },
  ...['list', 'concurrency', 'lint', 'form', 'start', 'first-load', 'restart', 'seed', 'export'].map((b) => ({
    entry: `scripts/bench/${b}.ts`,
    wrong: [['--rows', '5']],
  })),
  { entry: 'scripts/admin.ts', wrong: [['--bogus'], ['create-authority', '--bogus']] },
  { entry: 'scripts/package.ts', wrong: [['--bogus'], ['--out']] },
  { entry: 'scripts/backup.ts', wrong: [['--bogus'], ['--out'], ['extra']] },
  { entry: 'scripts/restore.ts', wrong: [[], ['a.tar.gz', 'b.tar.gz'], ['--forse', 'a.tar.gz']] },
  { entry: 'scripts/audit-verify.ts', wrong: [['--bogus']] },
  { entry: 'scripts/gen-types.ts', wrong: [['--chek']] },
  { entry: 'scripts/gen-docs.ts', wrong: [['--chek']] },
  { entry: 'scripts/dev.ts', wrong: [['--bogus']] },
  { entry: 'scripts/test-loaded.ts', wrong: [['--runs', '0'], ['--busy', 'two'], ['extra']] },
  {
    entry: 'scripts/screenshot.ts',
    wrong: [
      ['http://127.0.0.1:8080', 'nbadmin'],
      ['--width', 'wide', 'u', 'a', '/r', 'o.png'],
    ],
  },
  { entry: 'scripts/start.mjs', wrong: [['--bogus']] },
  { entry: 'src/server/main.ts', wrong: [['--bogus']] },
  { entry: 'scripts/package/portal', wrong: [['bogus']] },
];

/** Runs the jobs two at a time (the machine's cores), in order. */
async function inPairs<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

describe('the command-line tools', () => {
  it('answer --help with their usage and a wrong argument with one line, status 2, no stack', { timeout: 240_000 }, async () => {
    const cases = TOOLS.flatMap(({ entry, wrong }) => [{ entry, args: ['--help'] }, ...wrong.map((args) => ({ entry, args }))]);
    const runs = await inPairs(
      cases.map(
        ({ entry, args }) =>
          () =>
            run(entry, args),
      ),
    );
    const problems: string[] = [];
    cases.forEach(({ entry, args }, i) => {
      const { status, stdout, stderr } = runs[i];
      const what = `${entry} ${args.join(' ')}`.trim();
      if (args[0] === '--help') {
        if (status !== 0 || !/(Usage|用法)/.test(stdout) || stderr.trim() !== '')
          problems.push(`${what}: status ${status}, stdout ${JSON.stringify(stdout.slice(0, 200))}, stderr ${JSON.stringify(stderr.slice(0, 300))}`);
        return;
      }
      const lines = stderr.trim().split('\n');
      if (status !== 2 || lines.length !== 1 || lines[0] === '' || /^\s+at /m.test(stdout + stderr)) {
        problems.push(`${what}: status ${status}, stderr ${JSON.stringify(stderr.slice(0, 400))}`);
      }
    });
    expect(problems).toEqual([]);
  });
});

describe('the command-line parser', () => {
  const spec: CommandSpec = {
    name: 'npm run demo',
    summary: ['Does a demo.'],
    options: {
      count: { type: 'string', value: 'N', number: 'positive', description: 'how many' },
      dir: { type: 'string', path: 'dir', description: 'a folder' },
      dry: { type: 'boolean', description: 'change nothing' },
    },
    positionals: [{ name: 'name', description: 'a name', required: true }],
    examples: ['npm run demo -- x --count 3'],
  };
  const refusal = (argv: string[]): string => {
    try {
      interpretCommandLine(spec, argv);
    } catch (err) {
      if (err instanceof UsageError) return err.message;
      throw err;
    }
    return 'accepted';
  };

  it('returns the values of a right command line and help for -h', () => {
    expect(interpretCommandLine(spec, ['x', '--count', '3', '--dir', ROOT, '--dry'])).toEqual({
      values: { count: '3', dir: ROOT, dry: true },
      positionals: ['x'],
    });
    expect(interpretCommandLine(spec, ['-h'])).toBe('help');
  });

  it('names what is wrong', () => {
    expect(refusal(['x', '--cont', '3'])).toBe('unknown option --cont');
    expect(refusal(['x', '--count'])).toBe('option --count needs a value');
    expect(refusal(['x', '--count', '2.5'])).toBe('--count takes a positive whole number, not "2.5"');
    expect(refusal(['x', '--count=-1'])).toBe('--count takes a positive whole number, not "-1"');
    expect(refusal(['x', '--count', '-1'])).toBe('option --count needs a value (a value starting with "-" is written --count=<value>)');
    expect(refusal(['x', '--dry=yes'])).toBe('option --dry takes no value');
    expect(refusal(['x', '--dir', '/nonexistent'])).toBe('--dir: no such file or directory: /nonexistent');
    expect(refusal([])).toBe('missing <name>');
    expect(refusal(['x', 'y'])).toBe('unexpected argument "y"');
  });

  it('lists every option, the arguments and the examples in the help', () => {
    const text = helpText(spec);
    expect(text).toMatch(/^Usage: npm run demo -- \[options\] <name>$/m);
    for (const line of ['--count <N>', '--dir <value>', '--dry', '-h, --help', '<name>', 'npm run demo -- x --count 3']) expect(text).toContain(line);
  });
});

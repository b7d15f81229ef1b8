/**
 * The new password of `npm run admin`: typed twice without echo on a terminal, two lines
 * (password, confirmation) from a pipe, or made up (`--generate`). It must satisfy the portal's own
 * password rule (validators/password.ts): what the change-password form would accept.
 */
import { randomInt } from 'node:crypto';
import { PASSWORD_GUIDANCE } from '../../../validators';
import { satisfiesPasswordRule } from '../services/password';
import { AdminError } from './errors';

export interface PasswordSource {
  stdin: NodeJS.ReadStream;
  /** Where prompts go (not stdout: its lines are the command's result). */
  prompt: NodeJS.WritableStream;
}

/** Characters of generated passwords: no look-alikes (0/O, 1/l/I), specials from the rule's guidance. */
const CLASSES = ['abcdefghijkmnpqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '@#%&*?!'];
const GENERATED_LENGTH = 12;

/** A random password of 12 characters with every character class, by the CSPRNG. */
export function generatePassword(): string {
  const all = CLASSES.join('');
  const chars = CLASSES.map((set) => set[randomInt(set.length)]);
  while (chars.length < GENERATED_LENGTH) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/** One line typed without echo (raw mode): Enter ends it, Backspace deletes, Ctrl-C / Ctrl-D cancel. */
function readHidden(source: PasswordSource, question: string): Promise<string> {
  const { stdin, prompt } = source;
  prompt.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (outcome: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      prompt.write('\n');
      outcome();
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish(() => resolve(value));
        if (ch === '\u0003' || ch === '\u0004') return finish(() => reject(new AdminError('已取消', 'Cancelled')));
        if (ch === '\u007f' || ch === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** Everything piped in, as lines (a Windows line end loses its \r; nothing else is trimmed). */
async function readLines(stdin: NodeJS.ReadStream): Promise<string[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const lines = Buffer.concat(chunks).toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop(); // the end of the last line, not a line
  return lines.map((line) => line.replace(/\r$/, ''));
}

/** The rule, then the confirmation: each failure is one line and exit status 2. */
export function checkNewPassword(password: string, confirmation: string): string {
  if (password === '') throw new AdminError('未输入密码', 'No password given');
  if (!satisfiesPasswordRule(password))
    throw new AdminError(
      `密码不符合要求：${PASSWORD_GUIDANCE}`,
      'The password breaks the rule: 8–14 characters with at least three of lower case, upper case, digits and symbols',
    );
  if (password !== confirmation) throw new AdminError('两次输入的密码不一致', 'The two passwords differ');
  return password;
}

/** Reads (or makes) the new password; `generated` tells the caller to print it once. */
export async function newPassword(source: PasswordSource, generate: boolean): Promise<{ password: string; generated: boolean }> {
  if (generate) return { password: generatePassword(), generated: true };
  if (source.stdin.isTTY) {
    source.prompt.write(`${PASSWORD_GUIDANCE}\n`);
    const password = await readHidden(source, '新密码 / New password: ');
    const confirmation = await readHidden(source, '再次输入 / Repeat: ');
    return { password: checkNewPassword(password, confirmation), generated: false };
  }
  const [password = '', confirmation] = await readLines(source.stdin);
  if (confirmation === undefined)
    throw new AdminError(
      '标准输入应有两行：密码与确认密码（或用 --generate）',
      'Standard input must hold two lines: the password and its confirmation (or use --generate)',
    );
  return { password: checkNewPassword(password, confirmation), generated: false };
}

/**
 * What the operator's CLI (`npm run admin`) says when it stops: one line, Chinese then English,
 * and its exit status — 2 for a wrong command or input (nothing was written), 1 for a setting or
 * a database that cannot be used.
 */
export const EXIT_USAGE = 2;
export const EXIT_FAILURE = 1;

export class AdminError extends Error {
  constructor(
    readonly zh: string,
    readonly en: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(en);
    this.name = 'AdminError';
  }

  line(): string {
    return `${this.zh} / ${this.en}`;
  }
}

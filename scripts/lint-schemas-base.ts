/**
 * `npm run lint:schemas -- --base <ref>`: the resources at a git ref against the working tree, each
 * change classified (src/schema/evolution.ts classifyChanges). The git side lives here: resolving
 * the ref (`auto`: the merge-base with origin/main, or HEAD~1 on main itself or without that
 * remote, else skipped) and reading the
 * resource files at it with `git show <ref>:<path>`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Resource } from '../src/schema/types';

/** The ref to compare with, or why the comparison is skipped. */
export type BaseRef = { ref: string } | { skip: string };

/** A ref that names no commit: the command line is wrong (exit 2). */
export class BadRefError extends Error {}

function git(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 }).trim();
  } catch {
    return undefined;
  }
}

const commitOf = (cwd: string, ref: string) => git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);

/** The commit `base` names in the repository holding `cwd`; `auto` picks one or says why none. */
export function resolveBase(cwd: string, base: string): BaseRef {
  if (git(cwd, ['rev-parse', '--is-inside-work-tree']) !== 'true') {
    if (base === 'auto') return { skip: 'not a git work tree' };
    throw new BadRefError(`'${cwd}' 不在 git 仓库中 / is not in a git repository, so there is no ref '${base}'`);
  }
  if (base !== 'auto') {
    const commit = commitOf(cwd, base);
    if (!commit) throw new BadRefError(`找不到 git 引用 '${base}' / no git commit '${base}'`);
    return { ref: commit };
  }
  if (git(cwd, ['rev-parse', '--is-shallow-repository']) === 'true') return { skip: 'shallow clone (no history to compare with)' };
  // On a branch: where it left main. On main itself (the merge-base is HEAD): the last commit.
  if (commitOf(cwd, 'refs/remotes/origin/main')) {
    const mergeBase = git(cwd, ['merge-base', 'HEAD', 'refs/remotes/origin/main']);
    if (mergeBase && mergeBase !== commitOf(cwd, 'HEAD')) return { ref: mergeBase };
  }
  const parent = commitOf(cwd, 'HEAD~1');
  return parent ? { ref: parent } : { skip: 'no earlier commit (a single commit or none)' };
}

/** The resources of `schemaDir`/resources at `ref`, by name (a file that does not parse is left out: the lint reports it). */
export function resourcesAt(schemaDir: string, ref: string): Map<string, Resource> {
  const top = git(schemaDir, ['rev-parse', '--show-toplevel']);
  if (!top) throw new BadRefError(`'${schemaDir}' is not in a git repository`);
  const dir = relative(top, join(schemaDir, 'resources')).split('\\').join('/');
  const names = (git(top, ['ls-tree', '--name-only', ref, '--', `${dir}/`]) ?? '').split('\n').filter((p) => p.endsWith('.json'));
  const out = new Map<string, Resource>();
  for (const path of names) {
    const text = git(top, ['show', `${ref}:${path}`]);
    const resource = parse(text);
    if (resource) out.set(resource.name, resource);
  }
  return out;
}

/** The resources of `schemaDir`/resources in the working tree, by name. */
export function resourcesIn(schemaDir: string): Map<string, Resource> {
  const dir = join(schemaDir, 'resources');
  const out = new Map<string, Resource>();
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const resource = parse(readFileSync(join(dir, file), 'utf8'));
    if (resource) out.set(resource.name, resource);
  }
  return out;
}

function parse(text: string | undefined): Resource | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Resource;
    return typeof value?.name === 'string' && value.fields && typeof value.fields === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The user's own `git` program, run without a shell: `git -C <dir> …` through execFile (arguments as an array), with
 * GIT_TERMINAL_PROMPT=0 (a remote that wants a password fails in words instead of waiting for a terminal) and a fixed
 * locale (so the few messages told apart read the same everywhere). The authorship door reads history through it; the
 * sync room's transport (sync/gitCli.ts) does its pulls and pushes through it.
 */
import { execFile } from 'node:child_process';

/** `git` is not installed (or not on PATH). */
export class GitMissingError extends Error {
  constructor() {
    super('--sync needs the git program, and git was not found on this machine (install git or add it to PATH).');
    this.name = 'GitMissingError';
  }
}

export interface GitOut {
  code: number;
  stdout: string;
  stderr: string;
}

const GIT_TIMEOUT_MS = 120_000;

function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', LANG: 'C', GIT_EDITOR: 'true', GIT_MERGE_AUTOEDIT: 'no' };
}

/** Runs git; resolves with its exit code and output (never rejects on a non-zero exit). Rejects GitMissingError when git is absent. */
export function runGit(cwd: string, args: readonly string[]): Promise<GitOut> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', cwd, '-c', 'core.quotePath=false', ...args],
      { env: gitEnv(), timeout: GIT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new GitMissingError());
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/**
 * Runs git with `input` on its stdin and its stdout as bytes (`git cat-file --batch`, whose sizes are in bytes). Resolves
 * with the exit code (never rejects on a non-zero exit); rejects GitMissingError when git is absent.
 */
export function runGitBytes(
  cwd: string,
  args: readonly string[],
  input: string,
  maxBuffer = 256 * 1024 * 1024,
): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-C', cwd, '-c', 'core.quotePath=false', ...args],
      { env: gitEnv(), timeout: GIT_TIMEOUT_MS, maxBuffer, windowsHide: true, encoding: 'buffer' },
      (err, stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new GitMissingError());
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr: stderr.toString('utf8') });
      },
    );
    child.stdin?.on('error', () => undefined); // git gone before reading it all: its exit code says so
    child.stdin?.end(input);
  });
}

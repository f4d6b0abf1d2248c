/**
 * The user's own `git` program, run without a shell: `git -C <dir> …` through execFile (arguments as an array), with
 * GIT_TERMINAL_PROMPT=0 (a remote that wants a password fails in words instead of waiting for a terminal) and a fixed
 * locale (so the few messages told apart read the same everywhere). The authorship door reads history through it; the
 * sync room's transport (sync/gitCli.ts) does its pulls and pushes through it.
 */
import { execFile, spawn } from 'node:child_process';

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
 * Runs git with `input` on its stdin and hands its stdout to `onData` chunk by chunk as it comes, keeping none of it here,
 * so what it prints is never held whole (`git log` and `git cat-file --batch` over a long history). `onData` returning
 * false stops git there (the process is ended; `stopped` is true). Resolves with the exit code (never rejects on a non-zero
 * exit; a git that runs past the timeout is ended and fails); rejects GitMissingError when git is absent.
 */
export function streamGit(
  cwd: string,
  args: readonly string[],
  input: string,
  onData: (chunk: Buffer) => boolean | void,
): Promise<{ code: number; stderr: string; stopped: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', cwd, '-c', 'core.quotePath=false', ...args], { env: gitEnv(), windowsHide: true });
    let stopped = false;
    let stderr = '';
    let settled = false;
    const done = (out: { code: number; stderr: string; stopped: boolean } | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (out instanceof Error) reject(out);
      else resolve(out);
    };
    const timer = setTimeout(() => {
      stderr ||= `git ${args[0] ?? ''} took longer than ${GIT_TIMEOUT_MS / 1000} s`;
      child.kill();
    }, GIT_TIMEOUT_MS);
    child.on('error', (err) =>
      done((err as NodeJS.ErrnoException).code === 'ENOENT' ? new GitMissingError() : { code: 1, stderr: err.message, stopped }),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      if (onData(chunk) === false) {
        stopped = true;
        child.stdout.destroy();
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
    });
    child.on('close', (code) => done({ code: stopped ? 0 : (code ?? 1), stderr, stopped }));
    child.stdin.on('error', () => undefined); // git gone before reading it all: its exit code says so
    child.stdin.end(input);
  });
}

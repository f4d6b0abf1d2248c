/**
 * The real command line under strace (following forks) and a 3 GB data limit, and what a trace shows: every path a
 * traced call names, and the calls that touch a secret folder or write outside the allowed roots. Shared by the
 * hostile corpus (reads) and the hostile writes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { WAIT_CEILING_MS } from './waitFor';
import { CLI_PATH } from './builtCli';

export function hasStrace(): boolean {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  trace: string;
}

export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(OPENAI_|TEAMFUSION_)/.test(k)) env[k] = v;
  return env;
}

export const DATA_LIMIT = 3 * 1024 * 1024 * 1024;

/**
 * Every entry of a folder tree, not following links: a file by its size and the sha256 of all its bytes, a link by its
 * target, anything else by its type.
 */
export async function snapshotTree(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    const abs = path.join(root, rel);
    const st = await fs.lstat(abs);
    if (st.isSymbolicLink()) out.set(rel, `link ${await fs.readlink(abs)}`);
    else if (st.isFile())
      out.set(
        rel,
        `file ${st.size} ${createHash('sha256')
          .update(await fs.readFile(abs))
          .digest('hex')}`,
      );
    else if (st.isDirectory()) {
      out.set(rel, 'folder');
      for (const n of await fs.readdir(abs)) await walk(path.join(rel, n));
    } else out.set(rel, 'special');
  };
  await walk('.');
  return out;
}

/**
 * Runs `node dist/cli.js …args` under strace (following forks) and a 3 GB data limit, killed after the suites' wait ceiling.
 * --seccomp-bpf: only the traced calls stop the process (a kernel filter lets every other call run on), which is what
 * makes a traced command cost about what it costs untraced; the trace holds the same calls as without it.
 */
export async function cliUnderStrace(args: string[], env: Record<string, string>, cwd: string, traceFile: string): Promise<Outcome> {
  const trace = [
    '-f',
    '--seccomp-bpf',
    '-y',
    '-s',
    '4096',
    '-o',
    traceFile,
    '-e',
    'trace=open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,link,linkat,symlink,symlinkat,truncate',
  ];
  return new Promise((resolve, reject) => {
    // Under a 3 GB data limit (prlimit): a case that would need more memory fails instead of passing slowly.
    const child = spawn('prlimit', [`--data=${DATA_LIMIT}`, 'strace', ...trace, process.execPath, CLI_PATH, ...args], {
      cwd,
      env: { ...cleanEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, WAIT_CEILING_MS);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      void fs.readFile(traceFile, 'utf8').then(
        (t) => resolve({ code, signal, stdout, stderr, timedOut, trace: t }),
        () => resolve({ code, signal, stdout, stderr, timedOut, trace: '' }),
      );
    });
  });
}

/** Every path a traced syscall names (its arguments, and the real paths strace -y shows for file descriptors). */
export function pathsOf(line: string, cwd: string): { paths: string[]; write: boolean } {
  const m = /^\d+\s+(?:<\.\.\. )?(\w+)/.exec(line);
  const call = m?.[1] ?? '';
  const paths: string[] = [];
  let dirBase = cwd;
  const fdDir = /^\d+\s+\w+\((?:AT_FDCWD|\d+)<([^>]*)>,/.exec(line);
  if (fdDir) dirBase = fdDir[1]!;
  for (const q of line.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    const p = q[1]!;
    paths.push(path.isAbsolute(p) ? p : path.join(dirBase, p));
  }
  // Real paths strace -y shows for file descriptors (the result of an open, a renameat's second folder …); the first
  // argument's folder is only the base of a relative path, not a path the call opens or writes.
  const rest = fdDir ? line.replace(/^(\d+\s+\w+\()(?:AT_FDCWD|\d+)<[^>]*>,/, '$1') : line;
  for (const a of rest.matchAll(/<(\/[^>]*)>/g)) paths.push(a[1]!);
  const writeFlags = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(line);
  const write =
    /^(creat|rename|renameat2?|unlink|unlinkat|mkdir|mkdirat|link|linkat|symlink|symlinkat|truncate)$/.test(call) ||
    (/^open/.test(call) && writeFlags);
  return { paths: [...new Set(paths)], write };
}

export function inside(parent: string, p: string): boolean {
  const r = path.relative(parent, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/** Lines of a trace that touch a secret folder, open a device, or write outside the review (or the image cache). */
export function violations(trace: string, cwd: string, roots: string[], secrets: string[], cache: string): string[] {
  const out: string[] = [];
  for (const line of trace.split('\n')) {
    const { paths, write } = pathsOf(line, cwd);
    for (const p of paths) {
      if (secrets.some((s) => inside(s, p))) out.push(`touched the secret folder: ${line}`);
      if (/^\/dev\/(zero|urandom)/.test(p) && /^\d+\s+open/.test(line)) out.push(`opened a device: ${line}`);
    }
    if (write && !/ENOENT|EEXIST/.test(line.split(') = ').pop() ?? '')) {
      for (const p of paths.filter((x) => !x.startsWith('/dev/') && !x.startsWith('/proc/'))) {
        if (!roots.some((r) => inside(r, p)) && !inside(cache, p)) out.push(`wrote outside the review: ${line}`);
      }
    }
  }
  return out;
}

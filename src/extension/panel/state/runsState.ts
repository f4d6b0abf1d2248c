/**
 * The runs the review panel shows (no `vscode` import): every run folder listed, each record checked, and each run whose
 * record is not its driver's (issue 39: run.json or another file only its driver writes, committed or changed by someone
 * else) shown as a run that cannot be used, with the sentence naming the file, the commit and its author — in the Next
 * strip and the Run tab — instead of being believed.
 *
 * What git says about the runs is kept between loads (runsCache), keyed by what can change it: the commit checked out, the
 * files of runs/ and review.yaml that differ from it (each with its size and time), git's config files, this member's own
 * signature setting and the runs listed. A reload with none of that changed asks git two questions (rev-parse and status),
 * not the door's history reads; any change asks everything again.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listRunEntries, type RunEntry } from '../../../core/record/store';
import { driversRecordRefusals, recordIds, refusedRunEntries, type RecordRefusal } from '../../../core/record/recordAuthor';
import { reviewAuthorship } from '../../../core/review/loadReview';
import { runGit } from '../../../core/authorship/git';
import { ownRequireSignedCommits } from '../../../core/authorship/ownSettings';
import { RUNS_DIR } from '../../../core/record/paths';
import { formatDiagnostic } from '../../../core/diagnostics/diagnostics';
import { errorMessage } from '../../../core/kernel/errors';
import type { RunRecord } from '../../../core/record/record';

export interface PanelRuns {
  /** Newest first. */
  runs: RunRecord[];
  /** Runs whose record cannot be used, with their diagnostic(s) as one line each. */
  brokenRuns: { id: string; problem: string }[];
}

/** The runs of the review at `root` for the panel; a failure to list them is said through `warn` and shows no run. */
export async function panelRuns(root: string, warn: (line: string) => void): Promise<PanelRuns> {
  const listed = await listRunEntries(root).catch((e: unknown) => {
    warn(`Could not list the runs of ${root}: ${errorMessage(e)}`);
    return [] as RunEntry[];
  });
  const entries = await cachedRefusals(root, recordIds(listed)).then(
    (refused) => refusedRunEntries(listed, refused),
    (e: unknown) => {
      warn(`Who wrote the runs of ${root} could not be checked: ${errorMessage(e)}`);
      return listed;
    },
  );
  return {
    runs: entries.flatMap((e) => (e.record ? [e.record] : [])),
    brokenRuns: entries.flatMap((e) => (e.diagnostics ? [{ id: e.id, problem: e.diagnostics.map(formatDiagnostic).join(' ') }] : [])),
  };
}

/** The last answer per review folder; `checked` false: no door was open (nothing to keep, asking again costs no history). */
const runsCache = new Map<string, { key: string | undefined; checked: boolean; refused: Map<string, RecordRefusal> }>();
const CACHED_REVIEWS = 16;

/** driversRecordRefusals of `ids`, from runsCache when nothing that could change it has changed since it was asked. */
async function cachedRefusals(root: string, ids: readonly string[]): Promise<Map<string, RecordRefusal>> {
  if (!ids.length) return new Map();
  const at = path.resolve(root);
  const prev = runsCache.get(at);
  // Taken before git is asked: a change made while it answers shows at the next load.
  const key = prev?.checked === false ? undefined : await runsKey(at, ids).catch(() => undefined);
  if (prev && key !== undefined && prev.key === key) return prev.refused;
  const door = await reviewAuthorship(at);
  const refused = await driversRecordRefusals(at, ids, door);
  runsCache.delete(at);
  runsCache.set(at, { key, checked: door.checked, refused });
  if (runsCache.size > CACHED_REVIEWS) runsCache.delete(runsCache.keys().next().value!);
  return refused;
}

/**
 * What can change who wrote the runs' files, in one string: HEAD's commit, `git status` of runs/ and review.yaml with the
 * size and time of each file listed, the times of git's config files (user.email, allowed signers) and the member's own
 * signature setting, and the runs asked about. Undefined when git cannot say (outside git, no commit yet): then nothing is
 * kept.
 */
async function runsKey(root: string, ids: readonly string[]): Promise<string | undefined> {
  const rev = await runGit(root, ['rev-parse', '--show-toplevel', '--git-common-dir', 'HEAD']);
  if (rev.code !== 0) return undefined;
  const [top = '', common = '', head = ''] = rev.stdout.split('\n').map((l) => l.trim());
  const gitDir = path.resolve(root, common);
  const status = await runGit(root, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--no-renames',
    '--',
    RUNS_DIR,
    'review.yaml',
  ]);
  if (status.code !== 0) return undefined;
  const stamp = async (file: string): Promise<string> => {
    const s = await fs.stat(file).catch(() => undefined);
    return s ? `${s.size}:${s.mtimeMs}` : '-';
  };
  const changed = status.stdout
    .split('\0')
    .filter((e) => e.length > 3)
    .map((e) => path.join(top, e.slice(3)));
  const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const configs = [path.join(gitDir, 'config'), path.join(os.homedir(), '.gitconfig'), path.join(xdg, 'git', 'config')];
  return JSON.stringify([
    head,
    status.stdout,
    await Promise.all(changed.map(stamp)),
    await Promise.all(configs.map(stamp)),
    // The allowed-signers files those configs name: a key added to one changes whose signatures verify.
    await Promise.all((await allowedSignersFiles(configs, top)).map(async (f) => `${f}:${await stamp(f)}`)),
    ownRequireSignedCommits(),
    ids,
  ]);
}

/**
 * The `gpg.ssh.allowedSignersFile` paths the config files name (read as files, not asked of git: a reload stays at two git
 * calls). `~/` is the home folder; a relative path is git's working folder's. An `include` is not followed: a key added
 * to a file named only there shows at the next change of anything else in the key.
 */
async function allowedSignersFiles(configs: readonly string[], top: string): Promise<string[]> {
  const out: string[] = [];
  for (const file of configs) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    let inSsh = false;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      const section = /^\[\s*([^\]\s"]+)(?:\s+"([^"]*)")?\s*\]/.exec(line);
      if (section) inSsh = section[1]!.toLowerCase() === 'gpg' && section[2] === 'ssh';
      else if (inSsh) {
        const m = /^allowedsignersfile\s*=\s*(?:"([^"]*)"|(\S.*?))\s*(?:[#;].*)?$/i.exec(line);
        const value = m?.[1] ?? m?.[2];
        if (value) out.push(value.startsWith('~/') ? path.join(os.homedir(), value.slice(2)) : path.resolve(top, value));
      }
    }
  }
  return out;
}

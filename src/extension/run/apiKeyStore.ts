/**
 * The API key lives only in VS Code's SecretStorage (under 'teamfusion.apiKey') or in the OPENAI_API_KEY environment
 * variable — never in settings, files or logs. Structural types keep this free of a `vscode` import.
 */

export const API_KEY_SECRET = 'teamfusion.apiKey';

/** The subset of vscode.SecretStorage used here. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export type KeySource = 'secret-storage' | 'environment';

/** Why a typed key is unusable, or undefined when it is fine. */
export function apiKeyProblem(text: string): string | undefined {
  const key = text.trim();
  if (key === '') return 'Enter a key, or press Escape to cancel.';
  if (/\s/.test(key)) return 'An API key has no spaces or line breaks.';
  if (key.length < 8) return 'That is too short to be an API key.';
  return undefined;
}

export class ApiKeyStore {
  /** Every key seen in this session, so log lines can be redacted even after the key changed. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly secrets: SecretStore,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The key to use: secret storage first, then OPENAI_API_KEY. */
  async get(): Promise<{ key: string; source: KeySource } | undefined> {
    const stored = (await this.secrets.get(API_KEY_SECRET))?.trim();
    if (stored) {
      this.seen.add(stored);
      return { key: stored, source: 'secret-storage' };
    }
    const fromEnv = this.env.OPENAI_API_KEY?.trim();
    if (fromEnv) {
      this.seen.add(fromEnv);
      return { key: fromEnv, source: 'environment' };
    }
    return undefined;
  }

  async set(key: string): Promise<void> {
    const problem = apiKeyProblem(key);
    if (problem) throw new Error(problem);
    const clean = key.trim();
    this.seen.add(clean);
    await this.secrets.store(API_KEY_SECRET, clean);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
  }

  /** True when OPENAI_API_KEY is set (clearing the stored key then still leaves a key). */
  hasEnvironmentKey(): boolean {
    return Boolean(this.env.OPENAI_API_KEY?.trim());
  }

  /** Keys to redact from any log line. */
  knownSecrets(): string[] {
    const env = this.env.OPENAI_API_KEY?.trim();
    return env ? [...this.seen, env] : [...this.seen];
  }
}

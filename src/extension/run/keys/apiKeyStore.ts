/**
 * The API key lives only in VS Code's SecretStorage (under 'teamfusion.apiKey') or in the OPENAI_API_KEY environment
 * variable — never in settings, files or logs. Structural types keep this free of a `vscode` import.
 */

export const API_KEY_SECRET = 'teamfusion.apiKey';
/** The image endpoint's own key ("Set Image API Key"), else TEAMFUSION_IMAGE_API_KEY; without either, the chat key is used. */
export const IMAGE_API_KEY_SECRET = 'teamfusion.imageApiKey';

/** Where one key is kept: its SecretStorage entry and its environment variable. */
export interface KeySlot {
  secret: string;
  envVar: string;
}
export const CHAT_KEY: KeySlot = { secret: API_KEY_SECRET, envVar: 'OPENAI_API_KEY' };
export const IMAGE_KEY: KeySlot = { secret: IMAGE_API_KEY_SECRET, envVar: 'TEAMFUSION_IMAGE_API_KEY' };

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
    private readonly slot: KeySlot = CHAT_KEY,
  ) {}

  /** The key to use: secret storage first, then the environment variable (OPENAI_API_KEY for the chat key). */
  async get(): Promise<{ key: string; source: KeySource } | undefined> {
    const stored = (await this.secrets.get(this.slot.secret))?.trim();
    if (stored) {
      this.seen.add(stored);
      return { key: stored, source: 'secret-storage' };
    }
    const fromEnv = this.env[this.slot.envVar]?.trim();
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
    await this.secrets.store(this.slot.secret, clean);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(this.slot.secret);
  }

  /** True when the environment variable is set (clearing the stored key then still leaves a key). */
  hasEnvironmentKey(): boolean {
    return Boolean(this.env[this.slot.envVar]?.trim());
  }

  /** Keys to redact from any log line. */
  knownSecrets(): string[] {
    const env = this.env[this.slot.envVar]?.trim();
    return env ? [...this.seen, env] : [...this.seen];
  }
}

import * as assert from 'node:assert/strict';
import { API_KEY_SECRET, ApiKeyStore, apiKeyProblem, type SecretStore } from '../../../src/extension/run/keys/apiKeyStore';
import { redactSecrets } from '../../../src/extension/run/keys/redact';

class MemorySecrets implements SecretStore {
  readonly map = new Map<string, string>();
  async get(k: string) {
    return this.map.get(k);
  }
  async store(k: string, v: string) {
    this.map.set(k, v);
  }
  async delete(k: string) {
    this.map.delete(k);
  }
}

describe('extension-run: API key store', () => {
  it('prefers the stored secret over OPENAI_API_KEY', async () => {
    const secrets = new MemorySecrets();
    const store = new ApiKeyStore(secrets, { OPENAI_API_KEY: 'sk-from-env-1234' });
    assert.deepEqual(await store.get(), { key: 'sk-from-env-1234', source: 'environment' });
    await store.set('  sk-stored-5678  ');
    assert.equal(secrets.map.get(API_KEY_SECRET), 'sk-stored-5678');
    assert.deepEqual(await store.get(), { key: 'sk-stored-5678', source: 'secret-storage' });
    await store.clear();
    assert.equal(secrets.map.size, 0);
    assert.equal((await store.get())?.source, 'environment');
  });

  it('has no key when neither is set', async () => {
    assert.equal(await new ApiKeyStore(new MemorySecrets(), {}).get(), undefined);
  });

  it('refuses keys with spaces or that are empty, without storing them', async () => {
    const secrets = new MemorySecrets();
    const store = new ApiKeyStore(secrets, {});
    await assert.rejects(store.set('sk abc def ghi'));
    await assert.rejects(store.set(''));
    assert.equal(secrets.map.size, 0);
    assert.equal(apiKeyProblem('sk-fine-key-123'), undefined);
    assert.ok(apiKeyProblem('short'));
  });

  it('remembers keys it saw so the log can redact them', async () => {
    const store = new ApiKeyStore(new MemorySecrets(), { OPENAI_API_KEY: 'sk-env-abcdefgh' });
    await store.set('sk-secret-999999');
    const line = redactSecrets('sent sk-secret-999999 and sk-env-abcdefgh', store.knownSecrets());
    assert.equal(line, 'sent *** and ***');
  });
});

describe('extension-run: redaction', () => {
  it('removes bearer tokens and api_key pairs even for unknown keys', () => {
    assert.equal(redactSecrets('Authorization: Bearer abc.def', []), 'Authorization: Bearer ***');
    assert.equal(redactSecrets('url?api_key=xyz&x=1', []), 'url?api_key=***&x=1');
    assert.equal(redactSecrets('nothing secret here', ['sk-zzzzzz']), 'nothing secret here');
  });
});

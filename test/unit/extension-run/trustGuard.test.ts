import * as assert from 'node:assert/strict';
import {
  ensureTrusted,
  ensureTrustedToWrite,
  untrustedWriteMessage,
  MANAGE_TRUST,
  preflight,
  SET_API_KEY,
  UNTRUSTED_MESSAGE,
  type GuardUi,
} from '../../../src/extension/run/trustGuard';

function fakeUi(answer?: string) {
  const warnings: { message: string; buttons: string[] }[] = [];
  const commands: string[] = [];
  const ui: GuardUi = {
    warn: (message, ...buttons) => {
      warnings.push({ message, buttons });
      return Promise.resolve(answer);
    },
    runCommand: (c) => commands.push(c),
  };
  return { ui, warnings, commands };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('extension-run: workspace trust guard', () => {
  it('lets a trusted workspace through silently', () => {
    const f = fakeUi();
    assert.equal(ensureTrusted(true, f.ui), true);
    assert.equal(f.warnings.length, 0);
  });

  it('refuses an untrusted workspace with the message and a Manage Workspace Trust button', async () => {
    const f = fakeUi(MANAGE_TRUST);
    assert.equal(ensureTrusted(false, f.ui), false);
    assert.equal(f.warnings[0]?.message, UNTRUSTED_MESSAGE);
    assert.deepEqual(f.warnings[0]?.buttons, [MANAGE_TRUST]);
    await tick();
    assert.deepEqual(f.commands, ['workbench.trust.manage']);
  });

  it('preflight in an untrusted workspace never reads the key (so no client, no request)', async () => {
    const f = fakeUi();
    let keyReads = 0;
    const r = await preflight({
      isTrusted: false,
      busy: false,
      getApiKey: async () => {
        keyReads++;
        return 'sk-should-not-be-read';
      },
      ui: f.ui,
    });
    assert.deepEqual(r, { ok: false, reason: 'untrusted' });
    assert.equal(keyReads, 0);
  });

  it('preflight refuses a second run of a busy review before reading the key', async () => {
    const f = fakeUi();
    let busyTold = 0;
    let keyReads = 0;
    const r = await preflight({
      isTrusted: true,
      busy: true,
      getApiKey: async () => {
        keyReads++;
        return 'sk-x';
      },
      ui: f.ui,
      onBusy: () => busyTold++,
    });
    assert.deepEqual(r, { ok: false, reason: 'busy' });
    assert.equal(busyTold, 1);
    assert.equal(keyReads, 0);
  });

  it('preflight without a key offers the first-run choices in one place: set a key, a VS Code model, a local endpoint', async () => {
    const f = fakeUi(SET_API_KEY);
    const r = await preflight({ isTrusted: true, busy: false, getApiKey: async () => '   ', ui: f.ui });
    assert.deepEqual(r, { ok: false, reason: 'no-key' });
    assert.deepEqual(f.warnings[0]?.buttons, [SET_API_KEY, 'Use a VS Code Model', 'Use a Local Endpoint']);
    assert.match(f.warnings[0]!.message, /API key.*VS Code.*local endpoint.*Nothing was sent\.$/);
    await tick();
    assert.deepEqual(f.commands, ['teamfusion.setApiKey']);
    const g = fakeUi('Use a VS Code Model');
    await preflight({ isTrusted: true, busy: false, getApiKey: async () => undefined, ui: g.ui });
    await tick();
    assert.deepEqual(g.commands, ['teamfusion.useVsCodeModel']);
  });

  it('with a VS Code model the key is optional: preflight passes without one and offers nothing', async () => {
    const f = fakeUi();
    const r = await preflight({ isTrusted: true, busy: false, getApiKey: async () => undefined, ui: f.ui, keyOptional: true });
    assert.deepEqual(r, { ok: true });
    assert.equal(f.warnings.length, 0);
  });

  it('preflight passes the trimmed key when everything is fine', async () => {
    const f = fakeUi();
    const r = await preflight({ isTrusted: true, busy: false, getApiKey: async () => ' sk-abc123456 ', ui: f.ui });
    assert.deepEqual(r, { ok: true, apiKey: 'sk-abc123456' });
    assert.equal(f.warnings.length, 0);
  });
});

describe('extension: the one write guard (Workspace Trust for every command that writes)', () => {
  it('lets a trusted workspace write, silently', () => {
    const f = fakeUi();
    assert.equal(ensureTrustedToWrite(true, f.ui, 'Import Rankings'), true);
    assert.equal(f.warnings.length, 0);
  });

  it('refuses in an untrusted workspace in words naming the action, with a button that opens the trust editor', async () => {
    const f = fakeUi(MANAGE_TRUST);
    assert.equal(ensureTrustedToWrite(false, f.ui, 'Re-rank Final Candidates'), false);
    assert.equal(f.warnings.length, 1);
    assert.equal(f.warnings[0]!.message, untrustedWriteMessage('Re-rank Final Candidates'));
    assert.match(f.warnings[0]!.message, /writes nothing into an untrusted workspace, so Re-rank Final Candidates is off/);
    assert.deepEqual(f.warnings[0]!.buttons, [MANAGE_TRUST]);
    await tick();
    assert.deepEqual(f.commands, ['workbench.trust.manage']);
  });
});

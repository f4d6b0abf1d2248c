/**
 * Only regular files, within size, never too deep; diagnostics capped per file; terminal-safe text; one designer-id rule.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { capPerFile, designerKey, formatDiagnostic, loadReview, sameDesigner } from '../../../src/core/review';
import { error } from '../../../src/core/diagnostics/diagnostics';
import { checkNesting, MAX_NESTING } from '../../../src/core/files/nesting';
import { LIMITS, readReviewBytes, ReviewFileError } from '../../../src/core/files/reviewFiles';
import { printable } from '../../../src/core/kernel/text';
import { safeJson } from '../../../src/cli/output';
import { cleanupFixtures, makeReview, rankingYaml } from '../review/fixtures';

describe('limits: regular files, byte caps, nesting, diagnostics per file', function () {
  this.timeout(60_000);
  after(cleanupFixtures);

  it('a FIFO as brief.md is "not a regular file" at once (no hang)', async () => {
    const root = await makeReview({ brief: null });
    execFileSync('mkfifo', [path.join(root, 'brief.md')]);
    // Opening a FIFO for reading would block until a writer comes: that hang is what mocha's timeout would catch.
    const { diagnostics } = await loadReview(root);
    assert.match(
      formatDiagnostic(diagnostics.find((d) => d.file === 'brief.md')!),
      /^brief\.md:0:0: error: brief\.md is a named pipe \(FIFO\), not a regular file/,
    );
  });

  it('a device is refused by fstat before a byte is read (no out-of-memory)', async () => {
    // /dev/zero reached directly (as a root of its own) is a character device: refused before reading.
    await assert.rejects(
      readReviewBytes('/dev', 'zero', LIMITS.ranking),
      (e: unknown) => e instanceof ReviewFileError && e.reason === 'not-regular' && /a device/.test(e.message),
    );
  });

  it('a 30 MB ranking is "too large", named, and not parsed', async () => {
    const root = await makeReview();
    await fs.writeFile(path.join(root, 'rankings', 'carl.yaml'), Buffer.alloc(30 * 1024 * 1024, 0x20));
    const { diagnostics } = await loadReview(root);
    assert.equal(
      formatDiagnostic(diagnostics.find((d) => d.file === 'rankings/carl.yaml')!),
      'rankings/carl.yaml:0:0: error: rankings/carl.yaml is too large (30 MB; at most 2 MB).',
    );
  });

  it('a head read gives the first bytes only, and the whole file is still held to the cap', async () => {
    const root = await makeReview();
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await fs.writeFile(path.join(root, 'notes.bin'), bytes);
    assert.deepEqual(await readReviewBytes(root, 'notes.bin', 10_000, 1024), bytes.subarray(0, 1024));
    // A head longer than the file is the whole file.
    assert.deepEqual(await readReviewBytes(root, 'notes.bin', 10_000, 9000), bytes);
    await assert.rejects(
      readReviewBytes(root, 'notes.bin', 4000, 1024),
      (e: unknown) => e instanceof ReviewFileError && e.reason === 'too-large' && /notes\.bin is too large/.test(e.message),
    );
  });

  it('a brief over 200 KB is too large', async () => {
    const root = await makeReview({ brief: `# B\n${'x'.repeat(LIMITS.brief)}` });
    const { diagnostics } = await loadReview(root);
    assert.match(diagnostics.find((d) => d.file === 'brief.md')!.message, /too large .*at most 200 KB/);
  });

  for (const [name, text] of [
    ['flow', `designer: A\nranking: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`],
    ['block', `designer: A\nranking:\n${'- '.repeat(200_000)}x\n`],
    ['indented', `designer: A\nranking:\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`],
  ] as const) {
    it(`deep ${name} nesting in a ranking is an error in words with its place, never "Maximum call stack"`, async () => {
      const root = await makeReview();
      await fs.writeFile(path.join(root, 'rankings', 'deep.yaml'), text);
      const { diagnostics } = await loadReview(root);
      const d = diagnostics.find((x) => x.file === 'rankings/deep.yaml')!;
      assert.match(d.message, new RegExp(`nested more than ${MAX_NESTING} levels deep`));
      assert.ok(d.line >= 2, 'with its line');
      assert.ok(!diagnostics.some((x) => /call stack|Maximum/i.test(x.message)));
    });
  }

  it('deep nesting in review.yaml and in a .json ranking too', async () => {
    const root = await makeReview({
      reviewYaml: `title: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`,
      rankings: { 'alice.json': `{"designer": "A", "ranking": ${'['.repeat(100_000)}${']'.repeat(100_000)}}` },
    });
    const { diagnostics } = await loadReview(root);
    assert.match(diagnostics.find((d) => d.file === 'review.yaml')!.message, /nested more than/);
    assert.match(diagnostics.find((d) => d.file === 'rankings/alice.json')!.message, /nested more than/);
  });

  it('checkNesting leaves real files alone and measures brackets in quotes, comments and block text as text', () => {
    assert.equal(checkNesting(rankingYaml('Ana', ['1', '2', '3'])), undefined);
    assert.equal(
      checkNesting(
        `designer: A\nnote: "${'['.repeat(500)}"\n# ${'{'.repeat(500)}\ntext: |\n${Array.from({ length: 200 }, (_, i) => ` ${' '.repeat(i)}x`).join('\n')}\n`,
      ),
      undefined,
    );
    assert.equal(checkNesting(JSON.stringify({ a: [{ b: { c: [1, 2, { d: 'x' }] } }] }, null, 2)), undefined);
    assert.ok(checkNesting('['.repeat(MAX_NESTING + 1)));
  });

  it('a ranking with ~200k problems gives 50 diagnostics and one "and N more" line for the file, no stack overflow', async () => {
    const root = await makeReview();
    const lines = ['designer: Many', 'ranking:'];
    for (let i = 0; i < 200_000; i++) lines.push('  - 1');
    await fs.writeFile(path.join(root, 'rankings', 'many.yaml'), `${lines.join('\n')}\n`);
    const { diagnostics } = await loadReview(root);
    const mine = diagnostics.filter((d) => d.file === 'rankings/many.yaml');
    assert.equal(mine.length, 51);
    assert.match(mine[50]!.message, /^… and \d+ more problems in rankings\/many\.yaml \(only the first 50 are listed\)\.$/);
    assert.ok(!diagnostics.some((d) => /call stack/i.test(d.message)));
  });

  it('capPerFile keeps the first 50 of each file and adds one count line per file', () => {
    const list = [
      ...Array.from({ length: 120 }, (_, i) => error('a.yaml', `a${i}`, i + 1)),
      ...Array.from({ length: 3 }, (_, i) => error('b.yaml', `b${i}`)),
    ];
    const capped = capPerFile(list);
    assert.equal(capped.length, 50 + 1 + 3);
    assert.equal(capped[50]!.message, '… and 70 more problems in a.yaml (only the first 50 are listed).');
    assert.equal(capped[51]!.file, 'b.yaml');
  });
});

describe('terminal-safe text', () => {
  it('printable escapes C0 (\\n \\t \\r ESC), DEL, C1 and bidi controls; plain text is unchanged', () => {
    assert.equal(printable('a\nb\tc\rd\u001b[2Je\u007ff\u0085g\u202eh\u2066i'), 'a\\nb\\tc\\rd\\x1b[2Je\\x7ff\\x85g\\u202eh\\u2066i');
    assert.equal(printable('Ünal — «ok» 日本'), 'Ünal — «ok» 日本');
  });

  it('formatDiagnostic is always one line, whatever the file name holds', () => {
    const line = formatDiagnostic(error('rankings/x\n1:1: error: fake\u001b]0;title\u0007.yaml', 'bad\nthing'));
    assert.ok(!/[\n\u001b\u0007]/.test(line));
    assert.equal(line, 'rankings/x\\n1:1: error: fake\\x1b]0;title\\x07.yaml:0:0: error: bad\\nthing');
  });

  it('safeJson is valid JSON with DEL, C1, bidi and U+2028 escaped inside strings', () => {
    const value = { s: 'a\u001bb\u007fc\u0085d\u202ee\u2028f' };
    const text = safeJson(value);
    assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202e\u2028]/.test(text.replace(/\n/g, '')));
    assert.deepEqual(JSON.parse(text), value);
  });
});

describe('one designer-id rule (Unicode)', function () {
  this.timeout(30_000);
  after(cleanupFixtures);

  it('NFC/NFD spellings, case and ß/SS fold to one key', () => {
    assert.ok(sameDesigner('Ana', 'ana'));
    assert.ok(sameDesigner('Straße', 'STRASSE'));
    assert.ok(sameDesigner('Jos\u00e9', 'jose\u0301'));
    assert.ok(!sameDesigner('ana', 'anna'));
    assert.equal(designerKey('ＡＮＡ'), 'ana');
  });

  for (const [a, b] of [
    ['Straße.yaml', 'STRASSE.yaml'],
    ['Jos\u00e9.yaml', 'jose\u0301.yaml'],
  ] as const) {
    it(`${a} + ${b} are the same designer: an error, as for Ana.yaml + ana.yaml`, async () => {
      const root = await makeReview({ rankings: { [a]: rankingYaml('One', ['1', '2', '3']), [b]: rankingYaml('Two', ['3', '2', '1']) } });
      const { review, diagnostics } = await loadReview(root);
      assert.equal(review, undefined);
      assert.ok(
        diagnostics.some((d) => d.severity === 'error' && /are both for the designer id/.test(d.message)),
        diagnostics.map(formatDiagnostic).join('\n'),
      );
    });
  }
});

/**
 * The reference gallery (issue 19 item 2): references/ read like options/ (formats, caps, containment) with the notes of
 * references.yaml or references/README.md; through the real built CLI against the spec-checking mock: the proxies and the
 * remix agent see the references apart from the candidates, the cited ones reach the edit after the candidates (uncited
 * ones never), and no reference appears in a ranking, W or Borda. Bad references: diagnostics, exit 1, nothing sent.
 */
import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { instanceFromSchema, MockOpenAI } from '../../support/openaiMock';
import { loadReview } from '../../../src/core/review/loadReview';
import { checkReferencesReadme, checkReferencesYaml } from '../../../src/core/review/references';
import { referencesForEdit, maxEditImages } from '../../../src/core/remix/imageEdit';
import { mapLabelsForEdit } from '../../../src/core/discussion/remixPrompts';
import { remixJsonSchema } from '../../../src/core/remix/remixAgent';
import { makeImage, makeReview, makeTempDir } from './fixtures';
import { TEST_KEY, startCli, UNPOOLED_FLAGS } from './helpers';
import { builtCli } from '../../support/builtCli';

/** A review with references gold, linen, serif (natural order: Reference 1, 2, 3). */
async function withReferences(notes: 'yaml' | 'readme' | 'none' = 'yaml'): Promise<string> {
  const root = await makeReview({ options: 6, designers: 3, size: 200 });
  await fs.mkdir(path.join(root, 'references'));
  await makeImage(path.join(root, 'references', 'gold.png'), 11, 160, 120, 'png');
  await makeImage(path.join(root, 'references', 'linen.jpg'), 12, 160, 120, 'jpeg');
  await makeImage(path.join(root, 'references', 'serif.png'), 13, 160, 120, 'png');
  if (notes === 'yaml') {
    await fs.writeFile(
      path.join(root, 'references.yaml'),
      'references:\n  gold: The foil finish of the cap.\n  linen: A calm linen texture.\n',
    );
  } else if (notes === 'readme') {
    await fs.writeFile(
      path.join(root, 'references', 'README.md'),
      '# Our gallery\n\nChosen in the kick-off.\n\n## gold.png\n\nThe foil finish of the cap.\n\n## serif\n\nThe serif of the packaging.\n',
    );
  }
  return root;
}

describe('reference gallery: references/ and its notes', function () {
  this.timeout(60_000);

  it('loads references/ in natural order as Reference 1…, with the notes of references.yaml or references/README.md', async () => {
    const a = await loadReview(await withReferences('yaml'));
    assert.ok(a.review, JSON.stringify(a.diagnostics));
    assert.deepEqual(
      a.review.references?.map((r) => [r.id, r.label, r.file, r.note]),
      [
        ['gold', 'Reference 1', 'references/gold.png', 'The foil finish of the cap.'],
        ['linen', 'Reference 2', 'references/linen.jpg', 'A calm linen texture.'],
        ['serif', 'Reference 3', 'references/serif.png', undefined],
      ],
    );
    assert.equal(a.review.references?.[1]?.mime, 'image/jpeg');
    const b = await loadReview(await withReferences('readme'));
    assert.ok(b.review, JSON.stringify(b.diagnostics));
    assert.deepEqual(
      b.review.references?.map((r) => r.note),
      ['The foil finish of the cap.', undefined, 'The serif of the packaging.'],
    );
    const none = await loadReview(await makeReview({ options: 3, designers: 2, size: 64 }));
    assert.equal(none.review?.references, undefined);
  });

  it('a reference that is not an image, is damaged, leaves the folder or is a FIFO: an error naming it', async () => {
    const root = await withReferences('none');
    await fs.writeFile(path.join(root, 'references', 'brief.pdf'), '%PDF-1.4');
    await fs.writeFile(path.join(root, 'references', 'broken.png'), 'not a png');
    const outside = await makeTempDir('tf-outside-');
    await makeImage(path.join(outside, 'secret.png'), 3, 40, 30, 'png');
    await fs.symlink(path.join(outside, 'secret.png'), path.join(root, 'references', 'secret.png'));
    const { review, diagnostics } = await loadReview(root);
    assert.equal(review, undefined);
    const errs = diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.file}: ${d.message}`);
    assert.ok(
      errs.some((e) => /^references\/brief\.pdf: .*not a \.png, \.jpg, \.jpeg or \.webp image; references\/ holds only images/.test(e)),
      errs.join('\n'),
    );
    assert.ok(
      errs.some((e) => /^references\/broken\.png: .*cannot be opened as an image/.test(e)),
      errs.join('\n'),
    );
    assert.ok(
      errs.some((e) => /^references\/secret\.png: .*leads outside the review folder/.test(e)),
      errs.join('\n'),
    );
  });

  it('references.yaml: unknown id, empty note, too long a note at their line and column; both note files is an error', () => {
    const ids = ['gold', 'linen'];
    const r = checkReferencesYaml(`references:\n  gold: ok\n  glod: typo\n  linen:\n`, ids);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.line, d.column, d.severity]),
      [
        [3, 3, 'error'],
        [4, 3, 'error'],
      ],
    );
    assert.match(r.diagnostics[0]!.message, /"glod" is not a reference image in references\/.* The references are gold, linen\./);
    assert.equal(r.notes.get('gold'), 'ok');
    const long = checkReferencesYaml(`references:\n  gold: ${'x'.repeat(1001)}\n`, ids);
    assert.match(long.diagnostics[0]!.message, /1001 characters long; a note is at most 1000/);
    const dup = checkReferencesYaml('references:\n  gold: a\n  gold: b\n', ids);
    assert.equal(dup.diagnostics[0]!.severity, 'error');
    const md = checkReferencesReadme('# G\n\n## gold\n\nfoil\n\n## nope.png\n\nx\n\n## gold\n\ny\n', ids);
    assert.deepEqual(
      md.diagnostics.map((d) => [d.line, d.column]),
      [
        [7, 4],
        [11, 4],
      ],
    );
    assert.equal(md.notes.get('gold'), 'foil');
  });

  it('both references.yaml and references/README.md: one error; references.yaml without references/: an error', async () => {
    const root = await withReferences('yaml');
    await fs.writeFile(path.join(root, 'references', 'README.md'), '## gold\n\nfoil\n');
    const both = await loadReview(root);
    assert.ok(both.diagnostics.some((d) => d.file === 'references.yaml' && /in one place/.test(d.message)));
    await fs.rm(path.join(root, 'references'), { recursive: true });
    const orphan = await loadReview(root);
    assert.ok(orphan.diagnostics.some((d) => d.file === 'references.yaml' && /no references\/ folder/.test(d.message)));
  });

  it('the edit takes the cited references after the candidates, within the endpoint limit; labels are renumbered', () => {
    assert.equal(maxEditImages('gpt-image-1'), 16);
    assert.equal(maxEditImages('dall-e-2'), 1);
    const many = Array.from({ length: 20 }, (_, i) => `ref${i}`);
    const cut = referencesForEdit(3, many, 'gpt-image-1');
    assert.equal(cut.sent.length, 13);
    assert.deepEqual(cut.dropped, many.slice(13));
    const mapped = mapLabelsForEdit(
      'Keep Image 4 and the foil of Reference 2; not Reference 3.',
      [{ label: 'Image 4' }, { label: 'Image 1' }],
      [{ label: 'Reference 2' }],
    );
    assert.equal(mapped.text, 'Keep Image 1 and the foil of Image 3; not Reference 3.');
    assert.deepEqual(mapped.unmapped, ['Reference 3']);
    // The schema cites references through an enum of their ids; without references no such field (an empty enum is invalid).
    const withRefs = remixJsonSchema(['1', '2'], ['d1'], false, 2, 1, ['gold']) as {
      properties: Record<string, { items?: { enum?: string[] } }>;
    };
    assert.deepEqual(withRefs.properties.references?.items?.enum, ['gold']);
    const without = remixJsonSchema(['1', '2'], ['d1'], false, 2) as { properties: Record<string, unknown> };
    assert.equal('references' in without.properties, false);
    const final = remixJsonSchema(['1', '2'], ['d1'], true, 2, 1, ['gold']) as { properties: Record<string, unknown> };
    assert.equal('references' in final.properties, false);
  });
});

describe('reference gallery through the real CLI (scripted mock, every request checked against the spec)', function () {
  this.timeout(180_000);
  let mock: MockOpenAI;
  let env: Record<string, string>;
  before(async function () {
    builtCli();
    mock = await MockOpenAI.start();
    env = {
      OPENAI_API_KEY: TEST_KEY,
      OPENAI_BASE_URL: mock.baseURL,
      XDG_CACHE_HOME: await makeTempDir('tf-xdg-'),
      TEAMFUSION_MAX_RETRIES: '0',
    };
  });
  after(async () => mock?.close());
  beforeEach(() => mock.reset());

  it('cited references reach the edit after the candidates, uncited ones never; no reference in a ranking, W or Borda', async () => {
    const root = await withReferences('yaml');
    // Round 1 cites linen then gold (not serif); round 2 cites serif. Directions name Reference 1 (gold).
    let remixRound = 0;
    mock.setFallback((req) => {
      const rf = (req.body as { response_format?: { json_schema?: { name?: string; schema?: unknown } } }).response_format;
      if (rf?.json_schema?.name !== 'teamfusion_remix') return undefined;
      remixRound++;
      const value = instanceFromSchema(rf.json_schema.schema, 'teamfusion_remix') as Record<string, unknown> & {
        editingDirections: Record<string, string>;
      };
      value.references = remixRound === 1 ? ['linen', 'gold'] : ['serif'];
      value.editingDirections.colour = 'Take the gold of Reference 1 onto Image 2.';
      return { kind: 'json', value };
    });
    const run = await startCli(['run', root, '--iterations', '3', '--turns', '1', ...UNPOOLED_FLAGS, '--json'], env).done;
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(mock.specErrors(), []);

    // The chat prompts show the gallery apart from the candidates, with the notes quoted.
    const chats = mock.requests.filter((r) => r.route === 'chat');
    const texts = chats.map((r) => JSON.stringify(r.body));
    assert.ok(
      texts.every(
        (t) =>
          t.includes('They are NOT candidates') &&
          t.includes(
            'Reference 1 (reference id \\"gold\\"), chosen by the team for (their words, quoted): \\"The foil finish of the cap.\\"',
          ),
      ),
    );
    const remixSchemas = chats
      .map(
        (r) =>
          (
            r.body as {
              response_format?: { json_schema?: { name: string; schema: { properties: Record<string, { items?: { enum?: string[] } }> } } };
            }
          ).response_format?.json_schema,
      )
      .filter((s) => s?.name === 'teamfusion_remix');
    assert.equal(remixSchemas.length, 2);
    for (const s of remixSchemas) assert.deepEqual(s!.schema.properties.references?.items?.enum, ['gold', 'linen', 'serif']);

    // The edits: candidates first (the agent's ranking), then the cited references in the order cited; serif not in round 1.
    const runId = JSON.parse(run.stdout).runId ?? JSON.parse(run.stdout).id;
    const record = JSON.parse(await fs.readFile(path.join(root, 'runs', runId, 'run.json'), 'utf8'));
    const edits = mock.requests.filter((r) => r.route === 'edit');
    assert.equal(edits.length, 2);
    const names = edits.map((e) => e.files.map((f) => f.filename));
    const r1 = record.iterations[0];
    assert.deepEqual(names[0], [...r1.ranking.map((id: string) => `${id}.png`), 'linen.jpg', 'gold.png']);
    assert.equal(edits[0]!.files.at(-2)!.contentType, 'image/jpeg');
    assert.deepEqual(names[1]!.slice(-1), ['serif.png']);
    assert.ok(!names[1]!.includes('gold.png') && !names[1]!.includes('linen.jpg'));
    assert.ok(!names[0]!.includes('serif.png'));
    assert.deepEqual(r1.references, ['linen', 'gold']);
    assert.deepEqual(r1.remix.references, ['linen', 'gold']);
    assert.deepEqual(r1.remix.from, r1.ranking);
    // "Reference 1" (gold) is the 5th input image of the first edit (3 candidates, linen, gold); the prompt says which are references.
    const prompt1 = String((edits[0]!.body as { prompt: string }).prompt);
    assert.match(prompt1, /Take the gold of Image 5 onto Image \d/);
    assert.match(
      prompt1,
      /Reference images, for style only \(not designs to combine or copy\): Image 4 \(A calm linen texture\.\); Image 5 \(The foil finish of the cap\.\)\./,
    );

    // No reference is ever a candidate, in a ranking, in W or in Borda.
    const refIds = ['gold', 'linen', 'serif'];
    assert.deepEqual(
      record.references.map((r: { id: string }) => r.id),
      refIds,
    );
    for (const it of record.iterations) {
      for (const list of [it.candidates, it.ranking ?? [], Object.values(it.backed ?? {})])
        for (const id of refIds) assert.ok(!list.includes(id), `${id} in iteration ${it.index}`);
    }
    assert.ok(!record.options.some((o: { id: string; file: string }) => refIds.includes(o.id) || o.file.startsWith('references/')));
    const analyze = await startCli(['analyze', root, '--json'], env).done;
    assert.equal(analyze.code, 0, analyze.stderr);
    const a = JSON.parse(analyze.stdout);
    assert.deepEqual(a.options, ['1', '2', '3', '4', '5', '6']);
    assert.ok(a.borda.every((b: { option: string }) => !refIds.includes(b.option)));
    const rerank = await startCli(['rerank', root, runId], env).done;
    assert.equal(rerank.code, 0, rerank.stderr);
    const key = JSON.parse(await fs.readFile(path.join(root, 'runs', runId, 'rerank', 'key.json'), 'utf8')) as Record<
      string,
      { id: string; file: string }
    >;
    assert.ok(Object.values(key).every((k) => !refIds.includes(k.id) && !k.file.startsWith('references/')));
    // The record reads back (the record check knows the references).
    const compare = await startCli(['compare', root, runId, '--json'], env).done;
    assert.doesNotMatch(compare.stderr, /run\.json/);
  });

  it('with two remixes a round, the cited references go to both edits, each after its own candidates', async () => {
    const root = await withReferences('yaml');
    await fs.writeFile(path.join(root, 'review.yaml'), 'remixesPerIteration: 2\n');
    mock.setFallback((req) => {
      const rf = (req.body as { response_format?: { json_schema?: { name?: string; schema?: unknown } } }).response_format;
      if (rf?.json_schema?.name !== 'teamfusion_remix') return undefined;
      const value = instanceFromSchema(rf.json_schema.schema, 'teamfusion_remix') as Record<string, unknown>;
      value.references = ['serif'];
      return { kind: 'json', value };
    });
    const run = await startCli(['run', root, '--iterations', '2', '--turns', '1', ...UNPOOLED_FLAGS, '--json'], env).done;
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(mock.specErrors(), []);
    const edits = mock.requests.filter((r) => r.route === 'edit');
    assert.equal(edits.length, 2);
    for (const e of edits) {
      const names = e.files.map((f) => f.filename);
      assert.equal(names.at(-1), 'serif.png');
      assert.ok(!names.includes('gold.png') && !names.includes('linen.jpg'));
      assert.match(
        String((e.body as { prompt: string }).prompt),
        new RegExp(`Reference images, for style only \\(not designs to combine or copy\\): Image ${names.length}\\.`),
      );
    }
    const runId = JSON.parse(run.stdout).runId ?? JSON.parse(run.stdout).id;
    const record = JSON.parse(await fs.readFile(path.join(root, 'runs', runId, 'run.json'), 'utf8'));
    assert.deepEqual(
      record.iterations[0].remixes.map((m: { references?: string[] }) => m.references),
      [['serif'], ['serif']],
    );
  });

  it('a reference that is not an image or leaves the folder: diagnostics file:line:col, exit 1, nothing sent or written', async () => {
    const root = await withReferences('yaml');
    await fs.writeFile(path.join(root, 'references', 'moodboard.pdf'), '%PDF-1.4');
    const outside = await makeTempDir('tf-outside-');
    await makeImage(path.join(outside, 'x.png'), 3, 40, 30, 'png');
    await fs.symlink(path.join(outside, 'x.png'), path.join(root, 'references', 'x.png'));
    await fs.appendFile(path.join(root, 'references.yaml'), '  nope: what is this\n');
    const run = await startCli(['run', root, '--iterations', '2', '--turns', '1'], env).done;
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^references\/moodboard\.pdf:0:0: error: /m);
    assert.match(run.stderr, /^references\/x\.png:0:0: error: .*leads outside the review folder/m);
    assert.match(run.stderr, /^references\.yaml:4:3: error: "nope" is not a reference image/m);
    assert.equal(mock.requests.length, 0);
    assert.equal(existsSync(path.join(root, 'runs')), false);
    const validate = await startCli(['validate', root], env).done;
    assert.equal(validate.code, 1);
    assert.match(validate.stdout + validate.stderr, /references\/moodboard\.pdf:0:0: error/);
  });

  it('51 references with a note each: one error for the folder, not one per note; exit 1, nothing sent or written', async () => {
    const root = await withReferences('none');
    const names = Array.from({ length: 51 }, (_, i) => `r${i + 1}`);
    // Empty files: the count speaks before any image is opened.
    for (const n of names) await fs.writeFile(path.join(root, 'references', `${n}.png`), '');
    await fs.rm(path.join(root, 'references', 'gold.png'));
    await fs.rm(path.join(root, 'references', 'linen.jpg'));
    await fs.rm(path.join(root, 'references', 'serif.png'));
    await fs.writeFile(path.join(root, 'references.yaml'), `references:\n${names.map((n) => `  ${n}: a note on ${n}`).join('\n')}\n`);
    for (const command of [
      ['validate', root],
      ['run', root, '--iterations', '1', '--turns', '1'],
    ]) {
      const r = await startCli(command, env).done;
      assert.equal(r.code, 1, r.stderr);
      const errors = (r.stdout + r.stderr).split('\n').filter((l) => / error: /.test(l));
      assert.deepEqual(
        errors,
        ['references:0:0: error: references/ has 51 images; a review holds at most 50. Move some out (no image was opened).'],
        command[0],
      );
    }
    assert.equal(mock.requests.length, 0);
    assert.equal(existsSync(path.join(root, 'runs')), false);
  });
});

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parse as parseYaml } from 'yaml';
import { formatDiagnostic, formatRankingYaml, naturalCompare, validateRankingText } from '../../../src/core/review';
import { REPO_ROOT, SAMPLE } from './fixtures';
import { checkCounts, checkRankingText } from '../../../src/core/rankings/rankingText';

describe('validateRankingText', () => {
  const ids = ['1', '2', 'hero-blue'];
  const yaml = (body: string): string => `designer: Ana\nranking:\n${body}`;
  const entry = (option: string, rank: string, just = 'Because.'): string =>
    `  - option: ${option}\n    rank: ${rank}\n    justification: ${just}\n`;

  it('returns the ranking (id from the file name, entries in file order, weight 1) when valid', () => {
    const text = yaml(entry('"hero-blue"', '1') + entry('"2"', '2') + entry('"1"', '2'));
    const r = validateRankingText(text, 'rankings/ana-r.yaml', ids, 'yaml');
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.ranking, {
      id: 'ana-r',
      name: 'Ana',
      weight: 1,
      file: 'rankings/ana-r.yaml',
      entries: [
        { option: 'hero-blue', rank: 1, justification: 'Because.' },
        { option: '2', rank: 2, justification: 'Because.' },
        { option: '1', rank: 2, justification: 'Because.' },
      ],
    });
  });

  it('no ranking when there is any error, and several problems are reported together', () => {
    const text = yaml(entry('"hero-blu"', '1.5') + entry('"2"', '0', '""'));
    const r = validateRankingText(text, 'rankings/a.yaml', ids, 'yaml');
    assert.equal(r.ranking, undefined);
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), [
      'rankings/a.yaml:2:1: error: Options "1", "hero-blue" are missing from the ranking. Every image in options/ must be ranked exactly once.',
      'rankings/a.yaml:3:13: error: There is no option "hero-blu" in options/. Did you mean "hero-blue"? The options are "1", "2", "hero-blue".',
      'rankings/a.yaml:4:11: error: Rank must be a whole number of 1 or more (found 1.5).',
      'rankings/a.yaml:7:11: error: Rank must be a whole number of 1 or more (found 0).',
      'rankings/a.yaml:8:20: error: The justification is empty. Write a sentence on why this option has this rank.',
    ]);
  });

  it('does not "correct" a single-character id into another one', () => {
    const r = validateRankingText(yaml(entry('"7"', '1')), 'rankings/a.yaml', ['1', '2'], 'yaml');
    assert.doesNotMatch(r.diagnostics.map((d) => d.message).join('\n'), /Did you mean/);
  });

  it('an entry that is not a group of fields → error at the entry', () => {
    const r = validateRankingText('designer: A\nranking:\n  - "1"\n', 'rankings/a.yaml', ['1'], 'yaml');
    const second = r.diagnostics[1];
    assert.ok(second, 'a second diagnostic');
    assert.equal(
      formatDiagnostic(second),
      'rankings/a.yaml:3:5: error: Entry 1 of the ranking must have option:, rank: and justification: (found "1").',
    );
  });

  it('ranking: that is not a list → error at the value', () => {
    const r = validateRankingText('designer: A\nranking: first\n', 'rankings/a.yaml', ['1', '2'], 'yaml');
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), [
      'rankings/a.yaml:2:10: error: ranking must be a list of entries, each starting with "- option:" (found "first").',
    ]);
  });

  it('JSON with YAML-only syntax is rejected with the position', () => {
    const r = validateRankingText('{"designer": "A", "ranking": [1, 2,]}', 'rankings/a.json', ['1'], 'json');
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), [
      'rankings/a.json:1:36: error: This is not valid JSON: Remove the comma before "]": JSON does not allow a trailing comma.',
    ]);
    const unclosed = validateRankingText('{\n  "designer": "A\n}', 'rankings/a.json', ['1'], 'json');
    assert.equal(unclosed.diagnostics[0]?.line, 2);
    assert.match(unclosed.diagnostics[0]?.message ?? '', /cannot run over a line break/);
  });

  it('a UTF-8 byte-order mark is fine', () => {
    const r = validateRankingText(`\uFEFF${yaml(entry('"1"', '1'))}`, 'rankings/a.yaml', ['1'], 'yaml');
    assert.ok(r.ranking);
  });
});

describe('formatRankingYaml', () => {
  it('writes readable YAML with quoted option ids that reads back to the same ranking', () => {
    const ids = ['007', '1e3', 'yes', 'null', 'a: b', '4'];
    const entries = ids.map((option, i) => ({
      option,
      rank: i + 1,
      justification: i === 2 ? 'no' : `Line with: colon, "quotes" and # hash ${i}`,
    }));
    const text = formatRankingYaml({ designer: 'Zoë: lead', role: 'Art Director', weight: 2, ranking: entries });
    assert.match(text, /^designer: /);
    assert.match(text, /\n {2}- option: "007"\n {4}rank: 1\n/);
    assert.match(text, /option: "yes"/);
    assert.match(text, /justification: "no"/);
    const back = validateRankingText(text, 'rankings/z.yaml', ids, 'yaml');
    assert.deepEqual(back.diagnostics, []);
    assert.deepEqual(back.ranking!.entries, entries);
    assert.equal(back.ranking!.name, 'Zoë: lead');
    assert.equal(back.ranking!.weight, 2);
  });

  it('leaves out role and weight when not given', () => {
    const text = formatRankingYaml({ designer: 'A', ranking: [{ option: '1', rank: 1, justification: 'x' }] });
    assert.equal(text, 'designer: A\nranking:\n  - option: "1"\n    rank: 1\n    justification: x\n');
  });
});

describe('naturalCompare', () => {
  it('sorts numbers inside names by value and is total', () => {
    assert.deepEqual(['10', '2', '1', 'b', 'A', 'a', 'img-10', 'img-9'].sort(naturalCompare), [
      '1',
      '2',
      '10',
      'A',
      'a',
      'b',
      'img-9',
      'img-10',
    ]);
    assert.ok(naturalCompare('01', '1') !== 0);
  });
});

describe('schemas/ranking.schema.json', () => {
  const schema: unknown = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas', 'ranking.schema.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema as object);

  it('accepts every ranking of the sample', () => {
    for (const f of ['ana.yaml', 'ben.yaml', 'chen.yaml', 'dina.json']) {
      const data: unknown = parseYaml(readFileSync(path.join(SAMPLE, 'rankings', f), 'utf8'));
      assert.ok(validate(data), `${f}: ${JSON.stringify(validate.errors)}`);
    }
  });

  it('rejects what the loader rejects: rank 1.5 / 0 / "1", empty justification, weight 0, a path as option', () => {
    const base = {
      designer: 'A',
      ranking: [
        { option: '1', rank: 1, justification: 'x' },
        { option: '2', rank: 2, justification: 'y' },
      ],
    };
    const variants: unknown[] = [
      { ...base, ranking: [{ ...base.ranking[0], rank: 1.5 }, base.ranking[1]] },
      { ...base, ranking: [{ ...base.ranking[0], rank: 0 }, base.ranking[1]] },
      { ...base, ranking: [{ ...base.ranking[0], rank: '1' }, base.ranking[1]] },
      { ...base, ranking: [{ ...base.ranking[0], justification: ' ' }, base.ranking[1]] },
      { ...base, ranking: [{ ...base.ranking[0], option: 'options/1.png' }, base.ranking[1]] },
      { ...base, weight: 0 },
      { ranking: base.ranking },
    ];
    assert.ok(validate(base));
    for (const v of variants) assert.equal(validate(v), false, JSON.stringify(v));
  });

  it('has hover docs and completion snippets', () => {
    const s = schema as { $schema: string; defaultSnippets: unknown[]; properties: Record<string, { markdownDescription?: string }> };
    assert.equal(s.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.ok(s.defaultSnippets.length > 0);
    for (const key of ['designer', 'role', 'weight', 'ranking']) assert.ok(s.properties[key]?.markdownDescription, key);
  });
});

describe('checkRankingText remembers what it checked', () => {
  const text =
    'designer: Ana\nranking:\n  - option: "1"\n    rank: 1\n    justification: Bold.\n  - option: "2"\n    rank: 2\n    justification: Quiet.\n';

  it('a file checked again with the same text, name and options is not parsed again, and each caller gets its own copy', () => {
    const before = { ...checkCounts };
    const first = checkRankingText(text, 'rankings/ana.yaml', ['1', '2'], 'yaml');
    first.ranking!.role = 'changed by the first caller';
    first.ranking!.entries.pop();
    const again = checkRankingText(text, 'rankings/ana.yaml', ['1', '2'], 'yaml');
    assert.equal(checkCounts.reused - before.reused, 1);
    assert.equal(again.ranking?.role, undefined);
    assert.equal(again.ranking?.entries.length, 2);
  });

  it('another text, file name or set of options is checked afresh, with its own answer', () => {
    checkRankingText(text, 'rankings/ana.yaml', ['1', '2'], 'yaml');
    const before = { ...checkCounts };
    const otherOptions = checkRankingText(text, 'rankings/ana.yaml', ['1', '3'], 'yaml');
    assert.ok(
      otherOptions.diagnostics.some((d) => d.severity === 'error' && /"2"/.test(d.message)),
      JSON.stringify(otherOptions.diagnostics),
    );
    assert.equal(checkRankingText(text, 'rankings/ben.yaml', ['1', '2'], 'yaml').ranking?.id, 'ben');
    assert.equal(
      checkRankingText(text.replace('Bold.', 'Loud.'), 'rankings/ana.yaml', ['1', '2'], 'yaml').ranking?.entries[0]?.justification,
      'Loud.',
    );
    assert.equal(checkCounts.parsed - before.parsed, 3);
    assert.equal(checkCounts.reused - before.reused, 0);
  });
});

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FILE_KINDS, checkJsonNesting, fileKindRows } from '../../../src/core/files/fileKinds';
import { RECORD_LIMITS } from '../../../src/core/record/recordCheck';
import { MAX_INBOX_ENTRIES, MAX_SAY_CHARS } from '../../../src/core/people/inbox';
import { zodSentence } from '../../../src/core/zodText';
import * as z from 'zod';

/** The page that documents the file kinds and limits (docs/security.md, "Limits"). */
const LIMITS_PAGE = readFileSync(path.resolve(__dirname, '../../../../docs/security.md'), 'utf8');

describe('file kinds: one table, documented, every kind capped', () => {
  it('docs/security.md lists every kind of the table, row for row, and nothing else', () => {
    const rows = LIMITS_PAGE.split('\n').filter((l) => /^\| `[^`]+` \| .* \| `\w+` \|$/.test(l));
    assert.deepEqual(rows, fileKindRows());
    for (const [name, k] of Object.entries(FILE_KINDS)) {
      assert.ok(k.maxBytes > 0 && k.diagnostics === 50, name);
      if (k.parser === 'yaml' || k.parser === 'json' || k.parser === 'jsonl') assert.equal(k.nesting, 64, name);
    }
  });

  it('docs/security.md lists every record bound with its value', () => {
    for (const [name, max] of Object.entries(RECORD_LIMITS)) {
      const row = LIMITS_PAGE.split('\n').find((l) => l.includes(`(\`${name}\`)`));
      assert.ok(row, `docs/security.md Limits has no row for ${name}`);
      assert.ok(row.endsWith(`| ${max.toLocaleString('en-US')} |`), `${name}: ${row}`);
    }
    assert.ok(LIMITS_PAGE.includes(`at most ${MAX_INBOX_ENTRIES.toLocaleString('en-US')} entries (\`MAX_INBOX_ENTRIES\`)`));
    assert.ok(LIMITS_PAGE.includes(`at most ${MAX_SAY_CHARS.toLocaleString('en-US')} characters`));
  });

  it('JSON nesting is measured on the text, strings skipped, without recursion', () => {
    assert.equal(checkJsonNesting('{"a": [1, {"b": "[[[[["}]}', 3), undefined);
    assert.deepEqual(checkJsonNesting('{"a":\n  [[[[1]]]]}', 3), { line: 2, column: 5 });
    assert.deepEqual(checkJsonNesting('['.repeat(1_000_000))?.line, 1);
  });

  it('a zod failure shown to people is one sentence, never a dumped schema error', () => {
    const S = z.object({ content: z.string().min(1).max(4000), kind: z.enum(['say', 'pin']), n: z.number() });
    const say = (v: unknown) => {
      const r = S.safeParse(v);
      assert.ok(!r.success);
      return zodSentence(r.error, 'the entry');
    };
    assert.equal(say({ content: 'x'.repeat(100_000), kind: 'say', n: 1 }), 'content is too long (at most 4000 characters).');
    assert.equal(say({ content: '', kind: 'say', n: 1 }), 'content must not be empty.');
    assert.equal(say({ content: 'a', kind: 'x', n: 1 }), 'kind must be one of "say", "pin".');
    assert.equal(say({ content: 'a', kind: 'say' }), 'n is missing.');
    assert.equal(say(5), 'the entry must be a group of fields (found number).');
  });
});

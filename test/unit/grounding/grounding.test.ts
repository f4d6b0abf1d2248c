import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { requestedJsonSchema, requestTexts } from '../../support/openaiMock/autoResponder';
import { instanceFromSchema } from '../../support/openaiMock/schemaInstance';
import type { MockReply, RecordedRequest } from '../../support/openaiMock/types';
import { groundingOf, ungroundedCitations } from '../../../src/core/grounding/citations';
import { compareRun } from '../../../src/core/evaluation/compare/compare';
import { startRun } from '../../../src/core/run/session';
import { makeReview } from '../run/fixtures';
import { clientFor, mockSuite } from '../run/helpers';

const remixRequests = (mock: { requests: RecordedRequest[] }) =>
  mock.requests.filter((r) => requestedJsonSchema(r.body)?.name === 'teamfusion_remix');

describe('grounded messages: every image, id and member cited is checked against what the round showed', function () {
  this.timeout(60_000);
  const suite = mockSuite();

  it('labels, remix ids and @mentions outside the round are ungrounded, as written, once each', () => {
    const shown = {
      labels: ['Image 1', 'Image 2', 'Image 3', 'Reference 1'],
      remixIds: ['r1'],
      members: ['ana', 'Ana Ruiz', 'ben', 'Ben'],
    };
    assert.deepEqual(
      ungroundedCitations(
        'Image 2 beats image 5; IMAGE 5 again, Reference 1 and Reference 4, remix r1 and remix r2. @Ana agrees, @Zed not.',
        shown,
      ),
      ['image 5', 'IMAGE 5', 'Reference 4', 'remix r2', '@Zed'],
    );
    assert.deepEqual(ungroundedCitations('Image 1 and Image 3 both work; @ben?', shown), []);
    assert.deepEqual(
      groundingOf({ iterations: [{ messages: [{ kind: 'proxy', ungrounded: ['Image 9'] }, { kind: 'human', ungrounded: ['x'] }, {}] }] }),
      { messages: 2, ungrounded: 1, per100: 50 },
    );
    assert.deepEqual(groundingOf({ iterations: [] }), { messages: 0, ungrounded: 0, per100: null });
  });

  it('an "Image 9" in a six-image round is recorded on its message, marked in transcript.md, counted by compare; directions citing it are repaired', async () => {
    const root = await makeReview({ options: 6, designers: 2 });
    // Ana speaks first (fixed order): she cites an image the round never had.
    suite.mock.enqueue('chat', { kind: 'chat', content: 'Image 9 has the calm we need; Image 2 is close.' });
    let remixAsked = 0;
    suite.mock.setFallback((req): MockReply | undefined => {
      const wanted = requestedJsonSchema(req.body);
      if (wanted?.name !== 'teamfusion_remix') return undefined;
      const value = instanceFromSchema(wanted.schema) as Record<string, unknown>;
      if (remixAsked++ === 0) value.editingDirections = 'Keep: the light of Image 9. Change: the type. Combine: Image 1. Avoid: clutter.';
      return { kind: 'json', value };
    });
    const r = await startRun({
      reviewRoot: root,
      client: clientFor(suite.mock),
      cacheDir: suite.cacheDir,
      settings: { turnsPerAgent: 1, iterations: 2, mode: 'together', order: 'fixed' },
    });
    assert.equal(r.status, 'completed', r.error);
    assert.equal(r.iterations[0]!.candidates.length, 6);
    const first = r.iterations[0]!.messages[0]!;
    assert.deepEqual(first.ungrounded, ['Image 9']);
    const transcript = await fs.readFile(path.join(root, 'runs', r.id, 'transcript.md'), 'utf8');
    assert.match(transcript, /\*\(cites what this round did not show: Image 9\)\*/);

    // The remix agent's first directions rested on Image 9: sent back for repair, the problem named.
    const asked = remixRequests(suite.mock);
    assert.ok(asked.length >= 2);
    assert.match(requestTexts(asked[1]!.body).at(-1)!, /the editing directions cite Image 9, which this round did not show/);
    assert.doesNotMatch(r.iterations[0]!.editingDirections ?? '', /Image 9/);

    const c = await compareRun(root, r.id);
    const expected = groundingOf(r);
    assert.ok(expected.ungrounded >= 1);
    assert.deepEqual(c.grounding, expected);
    assert.equal(c.grounding.per100, Math.round((expected.ungrounded / expected.messages) * 10000) / 100);
  });
});

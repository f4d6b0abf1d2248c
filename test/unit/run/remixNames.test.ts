import * as assert from 'node:assert/strict';
import { remixIdsJump, remixNames } from '../../../src/core/record/remixes';

describe('remix names: the label the discussion uses beside the id', () => {
  const options = [
    { id: '1', label: 'Image 1' },
    { id: 'r1', label: 'Image 7' },
    { id: 'r3', label: 'Image 8' },
  ];

  it('each remix by label, id and the round that made it, in the order made', () => {
    const names = remixNames({
      options,
      iterations: [
        { index: 1, remix: { id: 'r1', file: 'iteration-1/remix.png' } },
        { index: 2 },
        { index: 3, remix: { id: 'r3', file: 'iteration-3/remix.png' } },
      ],
    });
    assert.deepEqual(names, [
      { id: 'r1', label: 'Image 7', round: 1 },
      { id: 'r3', label: 'Image 8', round: 3 },
    ]);
    assert.equal(remixIdsJump(names), true, 'round 2 made no remix: r1 then r3');
  });

  it('ids that run on (several a round included) do not jump; no remix, no names', () => {
    assert.equal(
      remixIdsJump([
        { id: 'r1a', label: 'Image 7', round: 1 },
        { id: 'r1b', label: 'Image 8', round: 1 },
        { id: 'r2', label: 'Image 9', round: 2 },
      ]),
      false,
    );
    assert.deepEqual(remixNames({ options, iterations: [{ index: 1 }] }), []);
  });
});

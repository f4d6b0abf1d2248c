/**
 * Forks (issue 33): the rules in core/fork read as the behaviour they pin — which points split the team, how the lead's
 * answer reads — and the one setting `forks` at each of its doors (review.yaml, run.json, VS Code).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { forkablePoints, splitsTeam } from '../../../src/core/fork/points';
import { forkAnswerProblem, readForkAnswer } from '../../../src/core/fork/choice';
import { forkProposals } from '../../../src/core/fork/designFork';
import { DEFAULT_FORK_MODE, FORK_MODES, forkModeOf } from '../../../src/core/settings/discussionSettings';
import { parseReviewConfig } from '../../../src/core/review/reviewConfig';
import { resolveRunSettings as resolveForRun } from '../../../src/core/run/runSettings';
import { resolveRunSettings, type InspectedValue } from '../../../src/extension/run/runSettings';
import type { DecisionPoint, Iteration } from '../../../src/core/record/record';
import { forkSideText } from '../../../src/core/record/remixes';

const side = (position: string, ...heldBy: string[]) => ({ position, heldBy });
const point = (...positions: { position: string; heldBy: string[] }[]): DecisionPoint => ({ question: 'Which way?', positions });
const MEMBERS = ['ana', 'ben', 'cy', 'dee', 'eve'];

describe('forks: which decision points split the team', () => {
  it('two to four sides, each held by a member, nobody on two sides, the texts distinct', () => {
    assert.equal(splitsTeam(point(side('warm', 'ana'), side('cold', 'ben')), MEMBERS), true);
    assert.equal(splitsTeam(point(side('a', 'ana'), side('b', 'ben'), side('c', 'cy'), side('d', 'dee')), MEMBERS), true);
    assert.equal(splitsTeam(point(side('warm', 'ana', 'ben')), MEMBERS), false, 'one side is no split');
    assert.equal(
      splitsTeam(point(side('a', 'ana'), side('b', 'ben'), side('c', 'cy'), side('d', 'dee'), side('e', 'eve')), MEMBERS),
      false,
      'five sides are more than a round makes',
    );
    assert.equal(splitsTeam(point(side('warm', 'ana'), side('cold')), MEMBERS), false, 'a side nobody holds');
    assert.equal(splitsTeam(point(side('warm', 'ana'), side('cold', 'zed')), MEMBERS), false, 'a side held only by someone not in the run');
    assert.equal(
      splitsTeam(point(side('warm', 'ana'), side('cold', 'ana', 'ben')), MEMBERS),
      false,
      'not mutually exclusive: ana holds both',
    );
    assert.equal(splitsTeam(point(side('Warm', 'ana'), side('warm ', 'ben')), MEMBERS), false, 'the same side twice');
  });

  it('forkable points are numbered 1-based in the round, and a point the round already settled is not forked', () => {
    const it: Pick<Iteration, 'decisionPoints' | 'decisions'> = {
      decisionPoints: [
        point(side('x', 'ana', 'ben')),
        { ...point(side('warm', 'ana'), side('cold', 'ben')), question: 'Palette?' },
        { ...point(side('left', 'ana'), side('right', 'ben')), question: 'Bottle?' },
      ],
      decisions: [{ question: 'Bottle?', decision: 'left', by: 'ana', via: 'proxy' }],
    };
    assert.deepEqual(forkablePoints(it, MEMBERS), [2]);
  });

  it("one proposal per side: the round's one remix repeated, its directions ending with the side it takes", () => {
    const it = {
      index: 1,
      candidates: ['1', '2', '3'],
      messages: [],
      ranking: ['2', '1', '3'],
      editingDirections: 'Composition: keep Image 1.',
      editingDirectionsDiscussed: 'Composition: keep Image 5.',
      decisionPoints: [{ question: 'Palette?', positions: [side('warm', 'ana'), side('cold', 'ben')] }],
    } satisfies Iteration;
    const [a, b] = forkProposals(it, 1);
    assert.deepEqual(a, {
      letter: 'a',
      idea: 'takes the side "warm"',
      from: ['2', '1', '3'],
      editingDirections: 'Composition: keep Image 1.\nDecision: Palette? This remix takes one side only: warm. Do not blend in "cold".',
      editingDirectionsDiscussed:
        'Composition: keep Image 5.\nDecision: Palette? This remix takes one side only: warm. Do not blend in "cold".',
      fork: { question: 'Palette?', position: 'warm', decisionPoint: 1 },
    });
    assert.equal(b!.fork!.position, 'cold');
    assert.equal(b!.letter, 'b');
    // Its card in the panel says which side it takes.
    assert.equal(forkSideText(b!.fork!), 'Takes the side "cold" of decision point 1: Palette?');
  });
});

describe("forks: the lead's answer under ask", () => {
  it('reads a number, none or /pass; anything else is unreadable', () => {
    assert.deepEqual(readForkAnswer(' 2 '), { point: 2 });
    assert.deepEqual(readForkAnswer('#3'), { point: 3 });
    assert.deepEqual(readForkAnswer('None.'), { none: true });
    assert.deepEqual(readForkAnswer('/pass'), { pass: true });
    assert.deepEqual(readForkAnswer('the warm one'), { unreadable: 'the warm one' });
  });

  it('say refuses a point the round cannot fork, or words, in one sentence naming the choices', () => {
    assert.equal(forkAnswerProblem('2', [2, 3]), undefined);
    assert.equal(forkAnswerProblem('none', [2]), undefined);
    assert.equal(forkAnswerProblem('1', [2, 3]), 'Decision point 1 cannot be forked in this round (2, 3, none or /pass).');
    assert.equal(forkAnswerProblem('warm please', [2]), 'Answer the fork question with 2, none or /pass.');
  });
});

describe('forks: the setting at every door', () => {
  it('review.yaml forks: one of off, auto, ask; another value is refused at its line', () => {
    assert.equal(parseReviewConfig('forks: ask\n').config.forks, 'ask');
    const bad = parseReviewConfig('title: T\nforks: maybe\n');
    assert.equal(bad.config.forks, undefined);
    assert.equal(bad.diagnostics.length, 1);
    assert.equal(bad.diagnostics[0]!.line, 2);
    assert.match(bad.diagnostics[0]!.message, /forks/);
  });

  it('a new run records auto unless review.yaml or the caller says otherwise; a record without it reads as off', () => {
    assert.equal(DEFAULT_FORK_MODE, 'auto');
    assert.equal(resolveForRun(undefined, {}, {}).forks, 'auto');
    assert.equal(resolveForRun(undefined, { forks: 'off' }, {}).forks, 'off');
    assert.equal(resolveForRun({ forks: 'ask' }, { forks: 'off' }, {}).forks, 'ask');
    assert.equal(forkModeOf({}), 'off', 'a run made before forks existed is resumed as it was run');
  });

  it("VS Code contributes teamfusion.forks with the engine's values and default, and passes it on only when set", () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
      contributes: {
        configuration:
          | { properties: Record<string, { enum?: string[]; default?: unknown }> }
          | { properties: Record<string, { enum?: string[]; default?: unknown }> }[];
      };
    };
    const sections = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
    const prop = sections.map((s) => s.properties['teamfusion.forks']).find(Boolean);
    assert.deepEqual(prop?.enum, [...FORK_MODES]);
    assert.equal(prop?.default, DEFAULT_FORK_MODE);
    const inspect =
      (user: Record<string, InspectedValue<unknown>>) =>
      (key: string): InspectedValue<unknown> => ({ defaultValue: key === 'forks' ? 'auto' : undefined, ...user[key] });
    assert.equal(resolveRunSettings(inspect({})).settings.forks, undefined, 'at its default, review.yaml decides');
    assert.equal(resolveRunSettings(inspect({ forks: { workspaceValue: 'ask' } })).settings.forks, 'ask');
    const bad = resolveRunSettings(inspect({ forks: { globalValue: 'always' } }));
    assert.equal(bad.settings.forks, undefined);
    assert.match(bad.warnings.join('\n'), /teamfusion\.forks \("always"\) is not "off", "auto" or "ask"; it is ignored/);
  });
});

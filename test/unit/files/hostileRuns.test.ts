/**
 * The hand-written hostile corpus, part two (corpusCases.ts): run records with traversal in every id and path, run
 * folders and records that are links, FIFOs or oversized, inboxes and surveys, and what a record makes a command do.
 * Each case runs through the real command line under strace; what it must show is in corpusHarness.ts.
 */
import { corpusSuite } from './corpusHarness';
import { RUN_CASES } from './corpusCases';

corpusSuite('the hand-written cases: run records', RUN_CASES);

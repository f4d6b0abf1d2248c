/**
 * The hostile corpus generated from the file-kind table (corpusProbes.ts: every kind × every attack that applies), half
 * 1 of the kinds (the other half is in hostileKinds2.test.ts; hostileCorpus.test.ts checks the halves hold every case once).
 * Each case runs through the real command line under strace; what it must show is in corpusHarness.ts.
 */
import { corpusSuite, generatedCases } from './corpusHarness';

corpusSuite('generated from the file-kind table, half 1', generatedCases(1));

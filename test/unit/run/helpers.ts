/** Shared helpers for engine tests: a mock server, a client pointed at it, and a collecting listener. */
import OpenAI from 'openai';
import { MockOpenAI } from '../../support/openaiMock';
import type { RunEvent } from '../../../src/core/run/events';
import { createModelClient } from '../../../src/core/llm/client';

export const TEST_KEY = 'sk-test-SECRET-do-not-write-0123456789';

export function clientFor(mock: MockOpenAI, o: { timeoutMs?: number; maxRetries?: number } = {}): OpenAI {
  return createModelClient({ apiKey: TEST_KEY, baseURL: mock.baseURL, timeoutMs: o.timeoutMs ?? 5000, maxRetries: o.maxRetries ?? 2 });
}

export function collect(): { events: RunEvent[]; onEvent: (e: RunEvent) => void } {
  const events: RunEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

export function chatRequests(mock: MockOpenAI) {
  return mock.requests.filter((r) => r.route === 'chat');
}

/** Proxy-turn requests are the streamed chat calls. */
export function turnRequests(mock: MockOpenAI) {
  return chatRequests(mock).filter((r) => (r.body as { stream?: boolean }).stream === true);
}

/**
 * How a run knows it is scripted (contract §7, `run.json` `scripted: true`): the bundled scripted server (`npm run demo`,
 * `npm run scripted-server`) names itself in a response header on every answer, and every client TeamFusion makes
 * (client.ts) watches its responses for it. The mark therefore comes from the server that actually answered, whatever the
 * key, URL or environment says: a run against the scripted server is always marked, a real endpoint never sends the header,
 * so its runs never are. (An endpoint that did send it would only get its runs labelled and left out of totals.)
 */
import type OpenAI from 'openai';

/** The response header the bundled scripted server sends on every answer (its value: "true"). */
export const SCRIPTED_HEADER = 'x-teamfusion-scripted';

/** Clients that have had at least one answer from a scripted server. */
const scriptedClients = new WeakSet<object>();

/** A fetch that marks `owner()` as scripted when an answer carries SCRIPTED_HEADER (the global fetch, looked up per call). */
export function watchingFetch(owner: () => object | undefined): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (response.headers.get(SCRIPTED_HEADER) === 'true') {
      const client = owner();
      if (client) scriptedClients.add(client);
    }
    return response;
  };
}

/** Whether this client has been answered by the bundled scripted server. */
export function isScriptedClient(client: OpenAI): boolean {
  return scriptedClients.has(client);
}

/** What answered instead of a model, in the words every command uses: never the model name a scripted answer did not come from. */
export const SCRIPTED_SERVER = "TeamFusion's bundled scripted server, not a model";

/** Who answered: the model's name, or the scripted server when it answered. */
export function answeredBy(model: string, scripted: boolean | undefined): string {
  return scripted ? SCRIPTED_SERVER : model;
}

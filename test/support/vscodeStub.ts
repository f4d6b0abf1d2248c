/**
 * Lets a unit test load a module of src/extension that imports `vscode` (not installed outside VS Code): `require('vscode')`
 * answers with a stub whose every property is another stub (callable, constructible). Nothing of the stub is meant to
 * work: the code under test is handed what it uses (a fake panel, a fake trust); the stub only lets its imports load.
 * `restore()` puts the resolver back (modules already loaded keep their stub).
 */
import Module = require('node:module');
import * as path from 'node:path';

type Resolver = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolver };
const STUB_FILE = path.join(__dirname, '__vscode_stub__.js');

function stub(name: string): unknown {
  const members = new Map<PropertyKey, unknown>();
  const target = function () {
    return undefined;
  };
  return new Proxy(target, {
    get(_t, key) {
      if (key === '__esModule') return true;
      if (key === 'then' || typeof key === 'symbol') return undefined;
      if (!members.has(key)) members.set(key, stub(`${name}.${key}`));
      return members.get(key);
    },
    construct: () => ({}),
  });
}

export function stubVscode(): { restore(): void } {
  const mod = new Module(STUB_FILE);
  mod.filename = STUB_FILE;
  mod.loaded = true;
  mod.exports = stub('vscode');
  require.cache[STUB_FILE] = mod;
  const original = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? STUB_FILE : original.call(this, request, ...rest);
  };
  return {
    restore() {
      loader._resolveFilename = original;
    },
  };
}

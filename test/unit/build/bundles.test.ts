/**
 * What the production bundles are made of (esbuild's metafile of `node esbuild.mjs --production`): the rules that keep
 * them small. The size goals themselves are reported by `npm run bench` from the packaged VSIX.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');

interface Meta {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

describe('production bundles', function () {
  this.timeout(120_000);
  let dir = '';
  let meta: Meta;
  const output = (name: string) => {
    const built = Object.entries(meta.outputs).find(([k]) => k.endsWith(`/${name}`))?.[1];
    assert.ok(built, `${name} was built`);
    return built;
  };
  const from = (name: string, pattern: RegExp) =>
    Object.entries(output(name).inputs)
      .filter(([f, v]) => pattern.test(f) && v.bytesInOutput > 0)
      .reduce((a, [, v]) => a + v.bytesInOutput, 0);

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-bundles-'));
    const r = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', dir], { cwd: REPO, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    meta = JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Meta;
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('activation (extension.js) parses only the shell: no src/core, no protocol, no library; the core is extension-core.js, loaded on first use', () => {
    const inputs = Object.entries(output('extension.js').inputs)
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([f]) => f.replace(/^.*?(src|node_modules)\//, '$1/'));
    assert.deepEqual(inputs.sort(), ['src/extension/extension.ts', 'src/extension/firstUse.ts']);
    assert.ok(output('extension.js').bytes < 10_000, `extension.js: ${output('extension.js').bytes} bytes`);
    assert.ok(readFileSync(path.join(dir, 'extension.js'), 'utf8').includes('require("./extension-core.js")'));
    assert.ok(readFileSync(path.join(dir, 'extension-core.js'), 'utf8').includes('require("./shared-core.js")'));
  });

  it('the package carries the core once: cli.js and extension-core.js read it from shared-core.js, zod included', () => {
    assert.ok(from('shared-core.js', /src\/core\//) > 100_000, 'the core is in shared-core.js');
    for (const name of ['cli.js', 'extension-core.js']) {
      assert.equal(from(name, /src\/core\//), 0, `no core source in ${name}`);
      assert.equal(from(name, /node_modules\/zod\//), 0, `no zod in ${name}`);
      assert.ok(readFileSync(path.join(dir, name), 'utf8').includes('require("./shared-core.js")'), `${name} loads shared-core.js`);
    }
  });

  it('are minified and carry no source maps', async () => {
    const names = await fs.readdir(dir);
    assert.deepEqual(
      names.filter((n) => n.endsWith('.map')),
      [],
    );
    const ext = await fs.readFile(path.join(dir, 'extension.js'), 'utf8');
    assert.ok(!ext.includes('sourceMappingURL'));
    assert.ok(ext.length / ext.split('\n').length > 500, 'minified: long lines (only template literals break them)');
  });

  for (const [pkg, file] of [
    ['openai', 'openai.js'],
    ['yaml', 'yaml.js'],
    ['csv-parse', 'csv-parse.js'],
  ] as const) {
    it(`keep ${pkg} out of extension.js, extension-core.js, cli.js and shared-core.js: its own file, ${file}, loaded on first use`, () => {
      const inside = new RegExp(`node_modules/${pkg}/`);
      assert.equal(from('extension.js', inside), 0);
      assert.equal(from('extension-core.js', inside), 0);
      assert.equal(from('cli.js', inside), 0);
      assert.equal(from('shared-core.js', inside), 0);
      assert.ok(from(file, inside) > 10_000);
      assert.ok(readFileSync(path.join(dir, 'shared-core.js'), 'utf8').includes(`require("./${file}")`));
    });
  }

  it('sources take openai, yaml, csv-parse and sharp values only through their accessors (types may be imported anywhere)', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const f = path.join(dir, e.name);
        if (e.isDirectory()) walk(f);
        else if (
          f.endsWith('.ts') &&
          /^import (?!type )[^;]*from '(openai|yaml|csv-parse|sharp)(\/[^']*)?';/m.test(readFileSync(f, 'utf8'))
        )
          offenders.push(path.relative(REPO, f));
      }
    };
    walk(path.join(REPO, 'src'));
    walk(path.join(REPO, 'webview'));
    assert.deepEqual(
      offenders,
      [],
      'import types only; values from src/core/llm/sdk.ts, src/core/yaml.ts, src/core/images/sharp.ts (csv-parse: require on use)',
    );
  });

  it('tree-shake zod: namespace imports only (no `import { z }`, which keeps every locale)', () => {
    assert.equal(
      from('shared-core.js', /node_modules\/zod\/v4\/locales\/(?!en\.js|index\.js)/),
      0,
      "every locale is in: write `import * as z from 'zod'`, not `import { z } from 'zod'`",
    );
    assert.ok(
      from('shared-core.js', /node_modules\/zod\//) < 160_000,
      `zod in shared-core.js: ${from('shared-core.js', /node_modules\/zod\//)} bytes`,
    );
  });

  it('the webview carries no schema library and no entity tables', () => {
    assert.equal(from('webview/panel.js', /node_modules\/zod\//), 0, 'zod');
    assert.equal(from('webview/panel.js', /node_modules\/entities\//), 0, 'the browser decodes entities');
    assert.equal(from('webview/panel.js', /node_modules\/linkify-it\//), 0, 'the panel finds its own bare links');
    assert.equal(from('webview/panel.js', /node_modules\/uc\.micro\//), 0, "the browser's regular expressions know the Unicode classes");
    assert.equal(from('webview/panel.js', /node_modules\/punycode\.js\//), 0, "the browser's URL parser makes host names ASCII");
    assert.equal(
      from(
        'webview/panel.js',
        /node_modules\/markdown-it\/lib\/(renderer|rules_block\/html_block|rules_inline\/html_inline|rules_core\/(replacements|smartquotes))\.mjs$/,
      ),
      0,
      "markdown-it's renderer, raw HTML and typographer are left out (scripts/lib/webviewMarkdown.mjs)",
    );
  });
});

// ESLint for src/, webview/, test/, scripts/ and bench/ (flat config): ESLint's and typescript-eslint's recommended rules,
// the TypeScript ones with type information (the project service reads tsconfig.json). A rule the tree does not keep is
// turned off (or tuned) here, each with its reason, never in a comment of the code. `npm run lint`; a stage of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const globals = (names) => Object.fromEntries(names.map((g) => [g, 'readonly']));
const NODE = globals([
  'process',
  'console',
  'Buffer',
  'URL',
  'URLSearchParams',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'AbortController',
  'AbortSignal',
  'fetch',
  'TextDecoder',
  'TextEncoder',
  'structuredClone',
  'performance',
  '__dirname',
  '__filename',
  'require',
  'module',
]);
/** Functions some scripts hand to a browser page (Playwright's `evaluate`), which run there. */
const PAGE = globals(['document', 'window', 'requestAnimationFrame', 'getComputedStyle']);

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      '.test-output/',
      '.vscode-test/',
      'coverage/',
      '.package/',
      'vsix/',
      'media/',
      'samples/',
      'schemas/',
      'docs/',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  { files: ['**/*.ts', '**/*.mjs'], extends: [js.configs.recommended] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The tree's convention (and tsc's noUnused*): a name starting with `_` is unused on purpose (a rest sibling left out, an argument kept for the signature).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // The panel's element helper takes async event handlers (`onclick: async () => …`) whose promise the DOM ignores; each handles its own failure.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { properties: false } }],
      // Optional and heavy modules (openai, yaml, csv-parse, sharp, the extension's core) are loaded on first use with require(), on purpose.
      '@typescript-eslint/no-require-imports': 'off',
      // Sanitizing text (model answers, member text, file names) matches control characters on purpose.
      'no-control-regex': 'off',
      // Async functions kept async to fit the handler or backend type they implement (a Promise-returning signature).
      '@typescript-eslint/require-await': 'off',
      // 80 places (mostly `!` after checked indexed reads); autofixable, left for a pass that does not collide with parallel work.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // `unknown | X` unions say what shape parsed input is expected to have, though the type is `unknown`.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Values stringified in messages are parsed YAML/JSON scalars or message contents typed as unions with objects; what they print is checked by tests.
      '@typescript-eslint/no-base-to-string': 'off',
      // Methods of plain objects passed as callbacks (their `this` unused), e.g. a log's methods.
      '@typescript-eslint/unbound-method': 'off',
      // An error rethrown as one sentence for the user; the cause is logged where it matters.
      'preserve-caught-error': 'off',
      // A few initial values kept before a try or a loop for readability.
      'no-useless-assignment': 'off',
      // Two rejections carry a signal's reason, which is whatever the aborter gave.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // Parsed JSON read without a schema in a few places (tests mostly; src: the CLI's JSON output and a settings read).
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // `cond && action()` in a few places (tests' chai-style expressions, one evaluation branch).
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read JSON output and records without a schema, by design: an assertion fails when a field is missing.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Expected output is matched with its column alignment (several spaces in a row).
      'no-regex-spaces': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'module', globals: NODE },
    rules: {
      // The same convention as the TypeScript files: `_`-prefixed names are unused on purpose.
      'no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      'no-useless-assignment': 'off',
    },
  },
  { files: ['scripts/test-vsix.mjs'], languageOptions: { globals: { ...NODE, ...PAGE } } },
);

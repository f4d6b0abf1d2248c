// The test extension's entry: its code is TypeScript (test/lmProvider/extension.ts), compiled by `npm run compile-tests`.
module.exports = require('../../out/test/lmProvider/extension.js');

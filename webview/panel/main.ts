// The review panel's webview app (bundled by esbuild to dist/webview/panel.js). Order matters: the nonce first.
import './litNonce';
import './elements';
import { startApp } from './app';

startApp();

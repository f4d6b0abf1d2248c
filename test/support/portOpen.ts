/** Whether something still accepts connections at the host and port of `url` (a stopped server's port refuses). */
import * as net from 'node:net';

export function portOpen(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port), u.hostname);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

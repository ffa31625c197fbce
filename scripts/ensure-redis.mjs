// Makes sure Debian's redis-server is installed for the real engine and its
// tests (as ensure-chromium.mjs does for the browser). The engine starts its
// own servers on free loopback ports with their own config and data dir, so
// the Debian service (port 6379), running or not, plays no part.
import { execSync } from 'node:child_process';

const has = (cmd) => {
  try {
    execSync(`command -v ${cmd}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
};
// --optional (npm start): a failed install is reported but does not stop the caller — the
// dashboard runs without it, and its engine choice says the real engine needs redis-server
const optional = process.argv.includes('--optional');
if (has('redis-server')) process.exit(0);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = isRoot ? '' : 'sudo ';
console.log('[ensure-redis] redis-server is missing; installing Debian\'s redis-server and redis-tools…');
try {
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools`, { stdio: 'inherit' });
} catch (e) {
  console.error(`[ensure-redis] could not install redis-server (${e.message}). Install it with: apt-get install -y redis-server redis-tools`);
  process.exit(optional ? 0 : 1);
}
if (!has('redis-server')) {
  console.error('[ensure-redis] redis-server installed but not on PATH');
  process.exit(optional ? 0 : 1);
}

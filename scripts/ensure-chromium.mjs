// Makes sure Debian's Chromium is installed for the browser tests and benchmarks
// (no browser downloads: playwright-core drives /usr/bin/chromium).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = isRoot ? '' : 'sudo ';
console.log(`[ensure-chromium] ${CHROMIUM} is missing; installing Debian's chromium package…`);
try {
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`, { stdio: 'inherit' });
} catch (e) {
  console.error(`[ensure-chromium] could not install chromium (${e.message}). Install it with: apt-get install -y chromium`);
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`[ensure-chromium] chromium installed but ${CHROMIUM} not found`);
  process.exit(1);
}

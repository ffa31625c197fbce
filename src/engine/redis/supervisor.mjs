// The watchdog of the real engine's redis-servers, started detached by the
// runner (redisServers.ts). Node cannot ask Linux to kill a child when its
// parent dies (no prctl), so this process polls the runner's pid; when the
// runner is gone (crash, kill -9) it kills every server listed in the run's
// pid file (each in its own process group) and removes the run's data dir.
// When the runner cleans up normally it removes the dir and this exits.
// usage: node supervisor.mjs <runner pid> <run dir>
import { existsSync, readFileSync, rmSync } from 'node:fs';

const [parentArg, dir] = process.argv.slice(2);
const parent = Number(parentArg);
if (!Number.isInteger(parent) || parent <= 1 || !dir) process.exit(2);

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};
/** only ever signal a pid that is still a redis-server (pids are reused) */
const isRedis = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server');
  } catch {
    return false;
  }
};

function killAll() {
  let pids = [];
  try {
    pids = readFileSync(`${dir}/pids`, 'utf8').split('\n').map(Number).filter((n) => Number.isInteger(n) && n > 1);
  } catch {
    /* no servers started yet */
  }
  for (const pid of pids) {
    if (!isRedis(pid)) continue;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

const timer = setInterval(() => {
  if (!existsSync(dir)) process.exit(0);
  if (!alive(parent)) {
    killAll();
    clearInterval(timer);
    process.exit(0);
  }
}, 200);

// Preloaded into the CLI process by bench/scale.mjs (`node --require bench/rusage.cjs dist/cli.js ...`): at exit it
// writes the process's own CPU time and peak RSS to fd 3, which the bench opened as a pipe. It changes nothing else.
'use strict';
const { writeSync } = require('node:fs');
process.on('exit', () => {
  const u = process.resourceUsage();
  try {
    writeSync(3, JSON.stringify({ userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000, maxRssKiB: u.maxRSS }));
  } catch {
    // No fd 3: run by hand.
  }
});

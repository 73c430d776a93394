// --serve: many compiles in one process.  Reads one job per line on standard
// input, a JSON array of the same argument strings the one-shot command line
// takes (or {"cwd": "/abs/folder", "args": [...]}: the job runs in that
// folder, its relative paths read from there), and answers each with one JSON
// line on standard output:
//
//   {"status":0,"diagnostics":"","outputs":["k.spv","k.json"]}
//
// plus "stdout" when the job printed something (-v, -h, text output without
// -o).  Every line gets exactly one answer, in order.  The global session is kept between jobs; each job gets a fresh
// Session, so jobs never see each other's modules.  A line that is not a JSON
// array of strings gets an error answer (status 1); end of input ends the
// server with exit status 0.  Nothing else is ever written to standard
// output.  The protocol is described in docs/slangc-wasm.md.

import path from 'node:path';
import readline from 'node:readline';

import { runJob } from './compile.js';
import { getSlang } from './slang.js';

function answer(obj) {
  return new Promise((resolve) => {
    if (process.stdout.write(JSON.stringify(obj) + '\n')) resolve();
    else process.stdout.once('drain', resolve);
  });
}

function parseJob(line) {
  let job;
  try {
    job = JSON.parse(line);
  } catch (e) {
    return { error: `bad job line: ${e.message}` };
  }
  let cwd = null;
  if (job !== null && typeof job === 'object' && !Array.isArray(job)) {
    if (typeof job.cwd !== 'string' || !path.isAbsolute(job.cwd))
      return { error: 'bad job line: "cwd" must be an absolute folder' };
    cwd = job.cwd;
    job = job.args;
  }
  if (!Array.isArray(job) || !job.every((a) => typeof a === 'string'))
    return {
      error: 'bad job line: expected a JSON array of strings, or {"cwd": FOLDER, "args": [strings]}',
    };
  return { argv: job, cwd };
}

/* The working folder to come back to after a job ("/" when it is gone). */
function currentFolder() {
  try {
    return process.cwd();
  } catch {
    return '/';
  }
}

/* Runs one job in its folder (job.cwd), and comes back. */
async function runIn(job) {
  if (job.cwd === null) return runJob(job.argv, { serve: true });
  const home = currentFolder();
  try {
    process.chdir(job.cwd);
  } catch (e) {
    return {
      status: 1,
      diagnostics: `slangc-wasm: error: cannot enter '${job.cwd}': ${e.message}\n`,
      outputs: [],
      stdout: null,
    };
  }
  try {
    return await runJob(job.argv, { serve: true });
  } finally {
    try {
      process.chdir(home);
    } catch {
      process.chdir('/');
    }
  }
}

export async function serve() {
  // Anything printed through console goes to standard error: standard output
  // carries answers only.
  for (const k of ['log', 'info', 'debug', 'warn']) console[k] = (...a) => console.error(...a);
  // A client that stops reading ends the server quietly.
  process.stdout.on('error', () => process.exit(0));

  try {
    await getSlang(); // load the wasm up front, off the first job's clock
  } catch (e) {
    process.stderr.write(`slangc-wasm: error: ${e.message}\n`);
  }

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  for await (const raw of rl) {
    const job = parseJob(raw.trim());
    if (job.error) {
      await answer({ status: 1, diagnostics: `slangc-wasm: error: ${job.error}\n`, outputs: [] });
      continue;
    }
    const r = await runIn(job);
    const reply = { status: r.status, diagnostics: r.diagnostics, outputs: r.outputs };
    if (r.stdout !== null) reply.stdout = String(r.stdout);
    await answer(reply);
  }
  return 0;
}

// Writing a job's output files: each goes to a temporary name in its own
// folder and is renamed into place once all of them are written, so a failed
// job leaves no output behind (and never a half-written one).

import fs from 'node:fs';
import path from 'node:path';

let counter = 0;

function tempName(p) {
  counter += 1;
  return path.join(path.dirname(p), `.${path.basename(p)}.${process.pid}.${counter}.tmp`);
}

/*
 * Writes [{path, data}] (data a string or a Buffer).  Either every file is in
 * place afterwards or none of the temporaries is left and the error is thrown.
 */
export function writeOutputs(files) {
  const temps = [];
  try {
    for (const f of files) {
      const t = tempName(f.path);
      temps.push(t);
      fs.writeFileSync(t, f.data);
    }
    for (let i = 0; i < files.length; i++) fs.renameSync(temps[i], files[i].path);
  } catch (e) {
    for (const t of temps) fs.rmSync(t, { force: true });
    throw e;
  }
}

// Make's escapes, as Slang's dependency-file writer applies them.
function escapeMake(p) {
  return p.replace(/[ :#[\]\\]/g, (c) => '\\' + c).replace(/\$/g, '$$$$');
}

/*
 * The -depfile text: one Makefile rule, `OUTPUT: DEP...`, as slangc writes
 * it ("-" stands for standard output).
 */
export function depfileText(output, deps) {
  return `${escapeMake(output ?? '-')}: ${deps.map(escapeMake).join(' ')}\n`;
}

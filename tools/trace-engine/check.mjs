// tools/trace-engine/check.mjs -- read each trace.json given with Chrome DevTools' own trace
// engine (@paulirish/trace_engine, the model behind DevTools' Performance panel and
// Lighthouse) and report anything it complains about.
//
// usage: node tools/trace-engine/check.mjs TRACE.json...
// Prints one line per trace ("ok: N events, M threads" or each complaint) and exits 1 when any
// trace threw or made the engine log an error or a warning.
import {analyzeTrace} from '@paulirish/trace_engine/analyze-trace.mjs';

const complaints = [];
for (const level of ['error', 'warn']) {
  // The engine reports what it cannot pair or place through the console, not by throwing.
  console[level] = (...args) => complaints.push(`${level}: ${args.map(String).join(' ')}`);
}

let bad = 0;
for (const file of process.argv.slice(2)) {
  complaints.length = 0;
  let summary = '';
  try {
    const {parsedTrace} = await analyzeTrace(file);
    let threads = 0;
    for (const process of parsedTrace.data.Renderer.processes.values())
      threads += process.threads.size;
    summary = `${parsedTrace.traceEvents.length} events, ${threads} threads`;
  } catch (e) {
    complaints.push(`threw: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e}`);
  }
  if (complaints.length) {
    bad++;
    process.stdout.write(`${file}: ${complaints.length} complaints\n`);
    for (const c of complaints.slice(0, 10))
      process.stdout.write(`  ${c}\n`);
  } else {
    process.stdout.write(`${file}: ok: ${summary}\n`);
  }
}
process.exit(bad ? 1 : 0);

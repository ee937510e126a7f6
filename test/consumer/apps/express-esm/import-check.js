// Issue 31, trap 5: `npx calendar-events-rest import` assumed the original's namespace, and
// against this library failed with a bare 404 after it had migrated the target. Run with the
// base URL of this app's own server (this library, namespace calendar/events/v1, holding the
// event the consumer test created): the import finds the namespace in the source's REST index
// with no --namespace flag and copies its events; a source that serves no events API, or not the
// namespace given, is refused before the target file is created. Prints what it checked; exits
// non-zero on a mismatch.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

const base = process.argv[2];

/** `npx calendar-events-rest import …` as a user runs it in the app's directory. */
function importFrom(source, db, ...more) {
  rmSync(db, { force: true });
  const run = spawnSync('npx', ['--no', 'calendar-events-rest', 'import', source, '--db', db, '--rate', '1000', ...more], { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, output: `exit ${run.status}\n${run.stdout}${run.stderr}` };
}

const imported = importFrom(`${base}/wp-json`, 'data/imported.sqlite');
assert.equal(imported.code, 0, imported.output);
assert.ok(
  imported.stderr.includes(`reading ${base}/wp-json/calendar/events/v1 (the events API its index lists; --namespace to choose)`),
  `the namespace it read is not named on stderr:\n${imported.output}`,
);
const events = /^events: (\d+) created, 0 updated, 0 unchanged, 0 skipped$/m.exec(imported.stdout);
assert.ok(events && Number(events[1]) >= 1, `no events created:\n${imported.output}`);
// Not WordPress: wp/v2 is not asked for, and said once.
assert.doesNotMatch(imported.stdout, /could not be read/, imported.output);
assert.match(imported.stdout, /the source is not WordPress \(its index lists no wp\/v2\)/, imported.output);

const wrongNamespace = importFrom(`${base}/wp-json`, 'data/wrong-namespace.sqlite', '--namespace', 'tribe/events/v1');
assert.equal(wrongNamespace.code, 1, wrongNamespace.output);
assert.equal(
  wrongNamespace.stderr.trim(),
  `calendar-events-rest: ${base}/wp-json serves no tribe/events/v1 (its index lists the namespaces calendar/events/v1): set the namespace to calendar/events/v1 (--namespace calendar/events/v1)`,
);
assert.ok(!existsSync('data/wrong-namespace.sqlite'), 'the target was created for a namespace the source does not serve');

// The app's home page is no REST root (Express' HTML 404 here).
const notAnApi = importFrom(`${base}/`, 'data/not-an-api.sqlite');
assert.equal(notAnApi.code, 1, notAnApi.output);
assert.match(notAnApi.stderr, /^calendar-events-rest: .* does not answer as an events API: /, notAnApi.output);
assert.ok(!existsSync('data/not-an-api.sqlite'), 'the target was created for a source that is no events API');

console.log(
  `npx calendar-events-rest import found calendar/events/v1 and imported its events (${events[1]}); refused a wrong namespace and a web page before creating the target`,
);

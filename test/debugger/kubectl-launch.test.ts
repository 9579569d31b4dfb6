// Tests the adapter over stdio with a launch that starts from a kubectl command line instead of a manifest: the entry
// frame named by the command, a function breakpoint on kubectl.generate, the generated objects shown as a source (what
// `--dry-run=client -o yaml` prints), kubectl's refusal as an exception, and the launch attribute's checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { collectOutput, podYaml, resume, root, startWith, topFrames, withSession } from './harness';

/** RUN_YAML is what kubectl 1.36 prints for `kubectl run web --image=nginx:1.27 --dry-run=client -o yaml`. */
const RUN_YAML = readFileSync(join(root, 'test', 'fixtures', 'kubectl-generate', 'run.yaml'), 'utf8');

const launchForms = [
  { name: 'a command line string', kubectl: 'kubectl run web --image=nginx:1.27' },
  { name: 'its words, without the leading kubectl', kubectl: ['run', 'web', '--image=nginx:1.27'] },
];

for (const form of launchForms) {
  test(`A launch from ${form.name} stops on entry at the command, then at a breakpoint on kubectl.generate in the generated objects`, async () => {
    await withSession(async (dc) => {
      const { event, functions } = await startWith(dc, { manifest: undefined, kubectl: form.kubectl, stopOnEntry: true }, { functions: [{ name: 'kubectl.generate' }] });
      assert.equal(functions[0]?.verified, true);
      assert.equal(event.body.reason, 'entry');
      const [entry] = await topFrames(dc, event.body.threadId);
      assert.equal(entry?.name, 'kubectl run web --image=nginx:1.27');
      const stop = await resume(dc, 'continueRequest', event.body.threadId);
      assert.equal(stop.body.reason, 'function breakpoint');
      const [top] = await topFrames(dc, stop.body.threadId);
      assert.match(top?.name ?? '', /^kubectl\.generate · kubectl run web --image=nginx:1\.27$/);
      // The frame points at metadata.name in the generated objects, which have no file: they come by reference.
      assert.equal(top?.source?.name, 'kubectl-generated.yaml');
      assert.ok(top?.source?.sourceReference);
      assert.equal(top?.line, RUN_YAML.split('\n').indexOf('  name: web') + 1);
      const source = await dc.sourceRequest({ source: top!.source!, sourceReference: top!.source!.sourceReference! });
      assert.equal(source.body.content, RUN_YAML);
      const lines = (await dc.setBreakpointsRequest({ source: top!.source!, breakpoints: [{ line: 6 }] })).body.breakpoints;
      assert.deepEqual(lines.map((b) => [b.verified, b.message]), [[false, 'What kubectl generated has no file: use a function breakpoint on a phase, such as kubectl.generate or scheduler.bind.']]);
      const exited = dc.waitForEvent('exited');
      await dc.continueRequest({ threadId: stop.body.threadId });
      assert.equal(((await exited) as DebugProtocol.ExitedEvent).body.exitCode, 0);
    });
  });
}

test('kubectl\'s refusal of the command line stops as a rejected request, prints kubectl\'s error and exits with 1', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const { event } = await startWith(dc, { manifest: undefined, kubectl: 'kubectl run web --image=NGINX' }, { exceptions: ['rejected'] });
    assert.equal(event.body.reason, 'exception');
    const info = (await dc.exceptionInfoRequest({ threadId: event.body.threadId })).body;
    assert.equal(info.description, 'error: Invalid image name "NGINX": invalid reference format');
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: event.body.threadId });
    assert.equal(((await exited) as DebugProtocol.ExitedEvent).body.exitCode, 1);
    assert.ok(output.some((o) => o.category === 'stdout' && o.output === '$ kubectl run web --image=NGINX\n'));
    assert.ok(output.some((o) => o.category === 'stderr' && o.output === 'error: Invalid image name "NGINX": invalid reference format\n'));
  });
});

test('A dry run without debugging prints the CLI\'s report and counts as done (exit 0)', async () => {
  await withSession(async (dc) => {
    const output = collectOutput(dc);
    const exited = dc.waitForEvent('exited');
    await startWith(dc, { manifest: undefined, kubectl: 'kubectl create deployment web --image=nginx:1.27 --dry-run=client -o name', noDebug: true }, {}, 'terminated');
    assert.equal(((await exited) as DebugProtocol.ExitedEvent).body.exitCode, 0);
    const report = output.filter((o) => o.category === 'stdout').map((o) => o.output).join('');
    assert.match(report, /^\$ kubectl create deployment web --image=nginx:1\.27 --dry-run=client -o name\ndeployment\.apps\/web\n/);
    assert.match(report, /\nOUTCOME DryRun\n/);
  });
});

const verbosityCases = [
  { name: 'while debugging, as the run steps', args: {} },
  { name: 'without debugging, before the report', args: { noDebug: true } },
];

for (const c of verbosityCases) {
  test(`kubectl -v=6 on the launch's command line logs kubectl's requests to the Debug Console's stderr ${c.name}`, async () => {
    await withSession(async (dc) => {
      const output = collectOutput(dc);
      const exited = dc.waitForEvent('exited');
      await startWith(dc, { manifest: undefined, kubectl: 'kubectl run web --image=nginx:1.27 -v=6', ...c.args }, {}, 'terminated');
      assert.equal(((await exited) as DebugProtocol.ExitedEvent).body.exitCode, 0);
      const log = output.filter((o) => o.category === 'stderr' && /^I0101 /.test(o.output)).map((o) => o.output.replace(/^I0101 00:00:00\.000000 {7}1 /, ''));
      assert.deepEqual(log.filter((l) => l.startsWith('round_trippers.go')), [
        'round_trippers.go:632] "Response" verb="GET" url="https://192.168.49.2:6443/api?timeout=32s" status="200 OK" milliseconds=0\n',
        'round_trippers.go:632] "Response" verb="GET" url="https://192.168.49.2:6443/apis?timeout=32s" status="200 OK" milliseconds=0\n',
        'round_trippers.go:632] "Response" verb="POST" url="https://192.168.49.2:6443/api/v1/namespaces/default/pods?fieldManager=kubectl-run" status="201 Created" milliseconds=0\n',
      ]);
      assert.match(log[0] ?? '', /^loader\.go:407\] Config loaded from file: {2}\S+\/\.kube\/config\n$/);
    });
  });
}

const invalidCases = [
  { name: 'a kubectl that is a number', args: { kubectl: 5 }, want: 'Invalid launch configuration: "kubectl" must be a command line such as "kubectl run web --image=nginx:1.27", or a list of its words, not 5.' },
  { name: 'a manifest and a kubectl command line both', args: { manifest: podYaml, kubectl: 'kubectl run web --image=nginx' }, want: 'Invalid launch configuration: "manifest" and "kubectl" cannot be used together: the run starts from a manifest or from a kubectl command line.' },
  { name: 'an unclosed quote', args: { kubectl: "kubectl run 'web --image=nginx" }, want: 'Invalid launch configuration: "kubectl" cannot be read as a command line: the single quote at character 13 is not closed.' },
  { name: 'a kubectl command that is not simulated', args: { kubectl: 'kubectl get pods' }, want: 'Invalid launch configuration: "kubectl": kubectl get is not simulated: the run starts from kubectl run, kubectl create deployment|job, kubectl create -f or kubectl apply -f.' },
  { name: 'an empty list of words', args: { kubectl: [] }, want: 'Invalid launch configuration: "kubectl" is empty: give a command line such as "kubectl run web --image=nginx:1.27".' },
];

for (const c of invalidCases) {
  test(`Launching with ${c.name} is refused with a message that says what to fix`, async () => {
    await withSession(async (dc) => {
      await dc.initializeRequest();
      const args = { ...c.args, ...('manifest' in c.args ? {} : { manifest: undefined }) } as DebugProtocol.LaunchRequestArguments;
      await assert.rejects(dc.launchRequest(args), (err: Error) => {
        assert.equal(err.message, c.want);
        return true;
      });
    });
  });
}

test('A launch of kubectl create -f reads the file -f names, and a missing one is named as the manifest', async () => {
  await withSession(async (dc) => {
    await dc.initializeRequest();
    await assert.rejects(dc.launchRequest({ kubectl: 'kubectl create -f missing.yaml' } as DebugProtocol.LaunchRequestArguments), {
      message: 'Cannot read the manifest: missing.yaml:1: cannot read the file: no such file',
    });
  });
});

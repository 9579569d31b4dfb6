// Opening a fixture shows what `pod-lifecycle run` reports for it: the language service, given the same cluster files
// as the `--cluster` flags, puts the run's rejection (or its FailedScheduling and FailedCreate events) on the manifest
// with the same message, with the API server's warnings kubectl prints, and nothing where the run goes through. The fixtures are those of test/cli/rejections-*.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runJson } from '../cli/harness';
import { LanguageService } from '../../src/language/service';
import { DEFAULT_SETTINGS } from '../../src/language/settings';

const cases: { manifest: string; clusters: string[] }[] = [
  { manifest: 'decode/unknown-field.yaml', clusters: [] },
  ...['invalid-name', 'duplicate-container', 'requests-above-limits', 'missing-volume', 'several-causes'].map((f) => ({ manifest: `validation/${f}.yaml`, clusters: [] })),
  ...['selector-mismatch', 'invalid-label-value', 'uppercase-name'].map((f) => ({ manifest: `apps/${f}.yaml`, clusters: [] })),
  { manifest: 'admission/pod-in-dev.yaml', clusters: [] },
  { manifest: 'admission/pod-in-dev.yaml', clusters: ['admission/nodes.yaml', 'admission/terminating-namespace.yaml'] },
  { manifest: 'admission/missing-priority-class.yaml', clusters: [] },
  { manifest: 'admission/missing-runtime-class.yaml', clusters: ['admission/nodes.yaml'] },
  ...['pod-secure', 'pod-relaxed', 'pod-host-network', 'deployment-secure'].map((f) => ({ manifest: `podsecurity/${f}.yaml`, clusters: ['podsecurity/cluster.yaml'] })),
  ...[['pod-over-quota', 'quota-compute'], ['pod-over-limit', 'limit-range'], ['pod-invalid-over-quota', 'quota-compute'], ['pod-no-resources', 'limit-range'],
    ['pod-within-quota', 'quota-compute'], ['pod-no-resources', 'quota-compute']].map(([m, p]) => ({ manifest: `quota/${m}.yaml`, clusters: ['quota/nodes.yaml', `quota/${p}.yaml`] })),
  ...['deny-validating', 'mutating-label', 'timeout-fail', 'timeout-ignore', 'vap-required-label'].map((s) => ({
    manifest: 'webhooks/pod.yaml', clusters: ['webhooks/nodes.yaml', 'webhooks/webhook-service.yaml', `webhooks/${s}.yaml`],
  })),
  { manifest: 'explain/pod-64-cpu.yaml', clusters: [] },
  { manifest: 'explain/pod-node-selector.yaml', clusters: [] },
];

/** REFUSALS are the diagnostic rules that stand for something the run reports; hints are the editor's own. */
const REFUSALS = new Set(['decode', 'validation', 'admission', 'scheduling', 'controllers']);

/** firstLines are the messages of the refusals, without the line that names the phase. */
function refusals(manifest: string, clusters: string[]): { code: string; message: string }[] {
  const service = new LanguageService((path) => readFileSync(path, 'utf8'));
  service.configure({ ...DEFAULT_SETTINGS, cluster: clusters.map((c) => join(ROOT, 'test', 'fixtures', c)) });
  const uri = `file://${join(ROOT, 'test', 'fixtures', manifest)}`;
  service.update(uri, 1, readFileSync(join(ROOT, 'test', 'fixtures', manifest), 'utf8'));
  return (service.validate(uri) ?? []).filter((d) => REFUSALS.has(String(d.code))).map((d) => ({ code: String(d.code), message: d.message.split('\n')[0]! }));
}

for (const c of cases) {
  const flags = c.clusters.map((f) => `--cluster ${f}`).join(' ');
  test(`the language server reports what pod-lifecycle run reports for ${c.manifest}${flags ? ` with ${flags}` : ''}`, () => {
    const { report } = runJson('run', `test/fixtures/${c.manifest}`, ...c.clusters.flatMap((f) => ['--cluster', `test/fixtures/${f}`]));
    const got = refusals(c.manifest, c.clusters);
    const rejection = report.rejection;
    if (rejection) {
      const server = got.filter((g) => g.code === 'decode' || g.code === 'validation');
      if (rejection.reason === 'Invalid' && server.length > 1) {
        // One diagnostic per cause, each `Pod "web" is invalid: <cause>`; joined as errors.NewInvalid joins them.
        const prefix = rejection.message.slice(0, rejection.message.indexOf(' is invalid: ') + ' is invalid: '.length);
        assert.equal(`${prefix}[${server.map((g) => g.message.slice(prefix.length)).join(', ')}]`, rejection.message);
      } else {
        assert.ok(got.some((g) => g.message === rejection.message), `want ${JSON.stringify(rejection.message)} among ${JSON.stringify(got, null, 1)}`);
      }
      return;
    }
    // kubectl prints the API server's warnings (a PodSecurity level that only warns) as `Warning: ...` lines.
    const warnings = report.kubectl.split('\n').filter((l) => l.startsWith('Warning: ')).map((l) => l.slice('Warning: '.length));
    // A controller retries a refused create with a new generated name each time, and the correlator combines the 10th
    // and later refusals ("(combined from similar events): "); the check's shorter run sees the same refusal.
    const same = (m: string) => m.replace(/^\(combined from similar events\): /, '').replace(/pods "([a-z0-9-]+)-[a-z0-9]{5}"/g, 'pods "$1-*"');
    const events = [...new Set([...warnings, ...report.events.filter((e) => e.type === 'Warning' && ['FailedScheduling', 'FailedCreate'].includes(e.reason)).map((e) => same(e.message))])];
    for (const message of events) assert.ok(got.some((g) => same(g.message) === message), `want ${JSON.stringify(message)} among ${JSON.stringify(got, null, 1)}`);
    if (events.length === 0) assert.deepEqual(got, [], 'the run goes through: nothing to report');
  });
}

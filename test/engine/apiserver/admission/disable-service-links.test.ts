// DisableServiceLinks: every pod created gets enableServiceLinks false; plugin/pkg/admission/disableservicelinks/admission_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../../src/engine/api/types';
import { disableServiceLinks } from '../../../../src/engine/apiserver/admission/disable-service-links';
import { attributesFor, makeContext, makePod } from './plugin-harness';

const cases: { name: string; given?: boolean; operation: 'CREATE' | 'UPDATE'; want: boolean | undefined }[] = [
  { name: 'A pod created without the field gets false', operation: 'CREATE', want: false },
  { name: 'A pod created with service links on gets false', given: true, operation: 'CREATE', want: false },
  { name: 'An update is left as it is', given: true, operation: 'UPDATE', want: true },
];

for (const c of cases) {
  test(c.name, () => {
    const a = attributesFor(makePod('web', c.given === undefined ? {} : { enableServiceLinks: c.given }), { operation: c.operation });
    disableServiceLinks.admit!(a, makeContext());
    assert.equal((a.object as Pod).spec?.enableServiceLinks, c.want);
  });
}

test('DisableServiceLinks handles create and update but not delete or connect', () => {
  const pod = makePod('web');
  assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((operation) => disableServiceLinks.handles(attributesFor(pod, { operation }))), [true, true, false, false]);
});

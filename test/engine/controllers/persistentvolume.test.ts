// Which PV the PersistentVolume controller gives a claim, and why a named PV does not fit.
// See pkg/controller/volume/persistentvolume/index.go (findByClaim) and pv_controller.go (checkVolumeSatisfyClaim).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PersistentVolume, PersistentVolumeClaim } from '../../../src/engine/api/types';
import { checkVolumeSatisfyClaim, findBestMatch } from '../../../src/engine/controllers/persistentvolume';

const makePV = (name: string, storage: string, opts: { modes?: string[]; className?: string; labels?: Record<string, string>; phase?: string; claim?: string } = {}): PersistentVolume => ({
  metadata: { name, ...(opts.labels ? { labels: opts.labels } : {}) },
  spec: {
    capacity: { storage }, accessModes: opts.modes ?? ['ReadWriteOnce'], ...(opts.className ? { storageClassName: opts.className } : {}),
    ...(opts.claim ? { claimRef: { namespace: 'default', name: opts.claim } } : {}),
  },
  status: { phase: opts.phase ?? 'Available' },
});
const makeClaim = (storage: string, opts: { modes?: string[]; className?: string; selector?: Record<string, string> } = {}): PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'default', uid: 'c-1' },
  spec: {
    accessModes: opts.modes ?? ['ReadWriteOnce'], resources: { requests: { storage } }, storageClassName: opts.className ?? '',
    ...(opts.selector ? { selector: { matchLabels: opts.selector } } : {}),
  },
});

const cases: { name: string; pvc: PersistentVolumeClaim; pvs: PersistentVolume[]; delay?: boolean; want: string | undefined }[] = [
  { name: 'the smallest PV that is big enough wins', pvc: makeClaim('1Gi'), pvs: [makePV('big', '50Gi'), makePV('small', '512Mi'), makePV('fit', '5Gi')], want: 'fit' },
  { name: 'a PV of another class does not match', pvc: makeClaim('1Gi'), pvs: [makePV('fast', '5Gi', { className: 'fast' })], want: undefined },
  { name: 'a PV that is not Available is skipped', pvc: makeClaim('1Gi'), pvs: [makePV('released', '5Gi', { phase: 'Released' })], want: undefined },
  { name: 'the claim\'s selector filters the PVs', pvc: makeClaim('1Gi', { selector: { tier: 'gold' } }), pvs: [makePV('plain', '2Gi'), makePV('gold', '8Gi', { labels: { tier: 'gold' } })], want: 'gold' },
  { name: 'a PV must offer every access mode the claim asks', pvc: makeClaim('1Gi', { modes: ['ReadWriteMany'] }), pvs: [makePV('rwo', '5Gi')], want: undefined },
  // allPossibleMatchingAccessModes: the sets with fewest modes are searched first, then the smallest within.
  { name: 'a PV with fewer access modes is preferred to a smaller one with more', pvc: makeClaim('1Gi'), pvs: [makePV('multi', '2Gi', { modes: ['ReadWriteOnce', 'ReadOnlyMany'] }), makePV('single', '10Gi')], want: 'single' },
  { name: 'a PV pre-bound to the claim wins over a smaller free one', pvc: makeClaim('1Gi'), pvs: [makePV('free', '2Gi'), makePV('reserved', '20Gi', { claim: 'data' })], want: 'reserved' },
  // FindMatchingVolume: on the controller's path, WaitForFirstConsumer claims only take a pre-bound PV.
  { name: 'a WaitForFirstConsumer claim is left to the scheduler', pvc: makeClaim('1Gi'), pvs: [makePV('free', '2Gi')], delay: true, want: undefined },
];
for (const c of cases) test(`pv controller: ${c.name}`, () => assert.equal(findBestMatch(c.pvc, c.pvs, c.delay ?? false)?.metadata?.name, c.want));

const satisfyCases: { name: string; pv: PersistentVolume; pvc: PersistentVolumeClaim; want: string | undefined }[] = [
  { name: 'a PV that fits is accepted', pv: makePV('pv', '5Gi'), pvc: makeClaim('1Gi'), want: undefined },
  { name: 'a PV too small is refused', pv: makePV('pv', '1Gi'), pvc: makeClaim('5Gi'), want: 'requested PV is too small' },
  { name: 'a PV of another class is refused', pv: makePV('pv', '5Gi', { className: 'fast' }), pvc: makeClaim('1Gi'), want: 'storageClassName does not match' },
  { name: 'a PV without the access mode is refused', pv: makePV('pv', '5Gi'), pvc: makeClaim('1Gi', { modes: ['ReadWriteMany'] }), want: 'incompatible accessMode' },
];
for (const c of satisfyCases) test(`pv controller: ${c.name}`, () => assert.equal(checkVolumeSatisfyClaim(c.pv, c.pvc), c.want));

// TaintNodesByCondition: a new Node starts tainted node.kubernetes.io/not-ready:NoSchedule until it is Ready.
import type { Node, Taint } from '../../api/types';
import type { AdmissionPlugin } from './plugin';

/** NOT_READY_TAINT is the taint every new Node gets (v1.TaintNodeNotReady, NoSchedule). */
export const NOT_READY_TAINT: Readonly<Taint> = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

/**
 * taintNodesByCondition adds the not-ready NoSchedule taint to a Node on create, unless it has a taint with that
 * key and effect (Taint.MatchTaint); the node lifecycle controller removes it once the node reports Ready.
 * See plugin/pkg/admission/nodetaint/admission.go.
 */
export const taintNodesByCondition: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  source: 'plugin/pkg/admission/nodetaint/admission.go',
  handles: (a) => a.resource === 'nodes' && a.group === '' && a.subresource === '' && a.operation === 'CREATE',
  admit(a) {
    const node = a.object as Node;
    const taints = node.spec?.taints ?? [];
    const detail = { taints: taints.map((t) => `${t.key}:${t.effect}`) };
    if (taints.some((t) => t.key === NOT_READY_TAINT.key && t.effect === NOT_READY_TAINT.effect)) {
      return { note: 'the node already has the not-ready taint', detail };
    }
    a.object = { ...a.object, spec: { ...node.spec, taints: [...taints, { ...NOT_READY_TAINT }] } };
    return { changes: [`spec.taints[${taints.length}]`], note: 'tainted node.kubernetes.io/not-ready:NoSchedule', detail };
  },
};

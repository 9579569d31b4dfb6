// The admission contract: named plugins that mutate or validate a request's object, in a fixed order.
import type { KubeObject } from '../../api/types';
import type { EngineContext } from '../../context';
import type { StatusError, UserInfo } from '../request';

/** Operation is the admission operation. */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** AdmissionAttributes are what a plugin sees of a request (admission.Attributes). */
export interface AdmissionAttributes {
  operation: Operation;
  kind: string;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** object is the plugin's to change in a mutating pass (a clone of the request's object). */
  object: KubeObject;
  /** oldObject is the stored object an UPDATE or DELETE acts on. */
  oldObject?: KubeObject;
  user: UserInfo;
}

/** AdmissionResult is what a plugin did: the fields it changed, or the error that ends the chain. */
export interface AdmissionResult {
  changes?: string[];
  error?: StatusError;
  /** note says in words what the plugin decided, for the trace. */
  note?: string;
  /** warnings are API warnings for the client; kubectl prints each as `Warning: <text>`. */
  warnings?: string[];
  /** detail is the plugin's own data for the Decision view (the checks it ran, the quota it counted). */
  detail?: Record<string, unknown>;
}

/** AdmissionPlugin is one plugin of kube-apiserver's admission chain. */
export interface AdmissionPlugin {
  name: string;
  /** source is the Kubernetes source the plugin follows. */
  source: string;
  /** handles tells whether the plugin acts on this request at all (admission.Handler.Handles and its resource checks). */
  handles(attrs: AdmissionAttributes): boolean;
  /**
   * writes is set on a plugin that may write to the store (an auto-provisioned namespace, a quota's usage): the entries
   * before it are recorded before it runs, so that its writes come after them, as they happen.
   */
  writes?: true;
  admit?(attrs: AdmissionAttributes, ctx: EngineContext): AdmissionResult;
  validate?(attrs: AdmissionAttributes, ctx: EngineContext): AdmissionResult;
}

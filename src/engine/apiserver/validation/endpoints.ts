// Endpoints validation on create and update: ValidateEndpointsCreate (ValidateEndpoints: the metadata, then each subset's
// addresses and ports) as pkg/registry/core/endpoint/strategy.go runs it, after core/v1 SetDefaults_Endpoints (each
// port's protocol TCP). See pkg/apis/core/validation/validation.go (k8s.io/kubernetes v1.36.3).
import { isObject, type KubeObject } from '../../api/types';
import { asJSON, child, type FieldError, index, invalidValue, notSupported, required } from './field-errors';
import { validateObjectMeta } from './metadata';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum, nameIsDNSSubdomain } from './names';
import { isValidIPForLegacyField, validateEndpointIP } from './service-ips';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const list = (v: unknown): Rec[] => (Array.isArray(v) ? v.map(rec) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const set = (v: unknown): boolean => v !== undefined && v !== null;

/** SUPPORTED_PORT_PROTOCOLS is supportedPortProtocols as sets.List sorts it (validation.go, v1.36.3). */
export const SUPPORTED_PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/**
 * validateEndpoints is ValidateEndpointsCreate: ValidateObjectMeta with ValidateEndpointsName (NameIsDNSSubdomain),
 * ValidateEndpointsSpecificAnnotations (no rule), then validateEndpointSubsets.
 */
export function validateEndpoints(endpoints: KubeObject): FieldError[] {
  const errs = validateObjectMeta(endpoints, true, nameIsDNSSubdomain);
  errs.push(...validateEndpointSubsets(list(endpoints['subsets']), 'subsets'));
  return errs;
}

/**
 * validateEndpointSubsets is validateEndpointSubsets: each subset has an address (ready or not), every address and
 * every port is valid; a port needs a name when the subset has more than one. Port names are not checked for
 * uniqueness, nor are ports required (a headless Service's endpoints may have none).
 */
function validateEndpointSubsets(subsets: Rec[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  subsets.forEach((subset, i) => {
    const at = index(path, i);
    const addresses = list(subset['addresses']);
    const notReady = list(subset['notReadyAddresses']);
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(at, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateEndpointAddress(a, index(child(at, 'addresses'), j))));
    notReady.forEach((a, j) => errs.push(...validateEndpointAddress(a, index(child(at, 'notReadyAddresses'), j))));
    const ports = list(subset['ports']);
    ports.forEach((p, j) => errs.push(...validateEndpointPort(p, ports.length > 1, index(child(at, 'ports'), j))));
  });
  return errs;
}

/**
 * validateEndpointAddress is validateEndpointAddress: the IP as a legacy IP field (strict: StrictIPCIDRValidation is
 * Beta and on in 1.36), the hostname a DNS label, the nodeName a DNS subdomain (ValidateNodeName), then the IP once
 * more through ValidateEndpointIP; so an address that is no IP at all gets both messages.
 */
function validateEndpointAddress(address: Rec, path: string): FieldError[] {
  const ip = str(address['ip']);
  const errs = isValidIPForLegacyField(child(path, 'ip'), ip);
  const hostname = str(address['hostname']);
  if (hostname.length > 0) errs.push(...isDNS1123Label(hostname).map((msg) => invalidValue(child(path, 'hostname'), hostname, msg)));
  if (set(address['nodeName'])) {
    const nodeName = str(address['nodeName']);
    errs.push(...isDNS1123Subdomain(nodeName).map((msg) => invalidValue(child(path, 'nodeName'), nodeName, msg)));
  }
  errs.push(...validateEndpointIP(ip, child(path, 'ip')));
  return errs;
}

/**
 * validateEndpointPort is validateEndpointPort: the name (required when the subset has several ports, else a DNS label
 * when set), the port number, the protocol (a core.Protocol, printed as JSON) and the appProtocol (a qualified name).
 */
function validateEndpointPort(port: Rec, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port['name']);
  if (requireName && name.length === 0) errs.push(required(child(path, 'name')));
  else if (name.length > 0) errs.push(...isDNS1123Label(name).map((msg) => invalidValue(child(path, 'name'), name, msg)));
  const portNum = typeof port['port'] === 'number' ? port['port'] : 0;
  errs.push(...isValidPortNum(portNum).map((msg) => invalidValue(child(path, 'port'), portNum, msg)));
  const protocol = str(port['protocol']);
  if (protocol.length === 0) errs.push(required(child(path, 'protocol')));
  else if (!SUPPORTED_PORT_PROTOCOLS.includes(protocol)) errs.push(notSupported(child(path, 'protocol'), asJSON(protocol), SUPPORTED_PORT_PROTOCOLS));
  if (set(port['appProtocol'])) {
    const appProtocol = str(port['appProtocol']);
    errs.push(...isQualifiedName(appProtocol).map((msg) => invalidValue(child(path, 'appProtocol'), appProtocol, msg)));
  }
  return errs;
}

// EndpointSlice (discovery.k8s.io/v1) validation on create and update: ValidateEndpointSliceCreate and the addressType
// rule of ValidateEndpointSliceUpdate, as pkg/registry/discovery/endpointslice/strategy.go runs them after discovery/v1
// defaulting (a port's name "" and protocol TCP) and PrepareForCreate (deprecatedTopology dropped on v1). The strategy
// passes no declarative enforcement, so the handwritten errors are the answer. See pkg/apis/discovery/validation/
// validation.go (k8s.io/kubernetes v1.36.3) and IsFullyQualifiedDomainName in
// staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (v0.36.3).
import { isObject, type KubeObject } from '../../api/types';
import { asJSON, child, duplicate, FIELD_IMMUTABLE, type FieldError, index, invalidValue, notSupported, required, tooMany } from './field-errors';
import { validateObjectMeta } from './metadata';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from './names';
import { SUPPORTED_PORT_PROTOCOLS } from './endpoints';
import { ipFamilyOf, isValidIP, isValidIPForLegacyField, validateEndpointIP } from './service-ips';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isObject(v) ? v : {});
const list = (v: unknown): Rec[] => (Array.isArray(v) ? v.map(rec) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const set = (v: unknown): boolean => v !== undefined && v !== null;

/** SUPPORTED_ADDRESS_TYPES is supportedAddressTypes as sets.List sorts it. */
const SUPPORTED_ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
// maxAddresses, maxPorts, maxEndpoints, maxZoneHints and maxNodeHints (validation.go).
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;
const MAX_NODE_HINTS = 8;

/**
 * validateEndpointSlice is ValidateEndpointSliceCreate: ValidateObjectMeta (ValidateEndpointSliceName is
 * NameIsDNSSubdomain), the addressType, the ports, then the endpoints.
 */
export function validateEndpointSlice(slice: KubeObject): FieldError[] {
  const errs = validateObjectMeta(slice, true, nameIsDNSSubdomain);
  const addressType = str(slice['addressType']);
  // The addressType is a discovery.AddressType, a named string: printed as JSON.
  if (addressType === '') errs.push(required('addressType'));
  else if (!SUPPORTED_ADDRESS_TYPES.includes(addressType)) errs.push(notSupported('addressType', asJSON(addressType), SUPPORTED_ADDRESS_TYPES));
  errs.push(...validatePorts(list(slice['ports']), 'ports'));
  errs.push(...validateSliceEndpoints(list(slice['endpoints']), addressType, 'endpoints'));
  return errs;
}

/**
 * validateSliceEndpoints is validateEndpoints: at most 1000 endpoints; each with 1 to 100 addresses valid for the
 * addressType (an unknown type checks none), a nodeName that is a DNS subdomain, a hostname that is a DNS label and
 * valid hints. Conditions, zone and targetRef are not validated; deprecatedTopology is dropped on v1 before.
 */
function validateSliceEndpoints(endpoints: Rec[], addressType: string, path: string): FieldError[] {
  if (endpoints.length > MAX_ENDPOINTS) return [tooMany(path, endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  endpoints.forEach((endpoint, i) => {
    const at = index(path, i);
    const addressPath = child(at, 'addresses');
    const addresses = Array.isArray(endpoint['addresses']) ? endpoint['addresses'].map(str) : [];
    if (addresses.length === 0) errs.push(required(addressPath, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(addressPath, addresses.length, MAX_ADDRESSES));
    addresses.forEach((address, j) => errs.push(...validateAddress(address, addressType, addressPath, index(addressPath, j))));
    if (set(endpoint['nodeName'])) {
      const nodeName = str(endpoint['nodeName']);
      errs.push(...isDNS1123Subdomain(nodeName).map((msg) => invalidValue(child(at, 'nodeName'), nodeName, msg)));
    }
    if (set(endpoint['hostname'])) {
      const hostname = str(endpoint['hostname']);
      errs.push(...isDNS1123Label(hostname).map((msg) => invalidValue(child(at, 'hostname'), hostname, msg)));
    }
    if (isObject(endpoint['hints'])) errs.push(...validateHints(endpoint['hints'], child(at, 'hints')));
  });
  return errs;
}

/**
 * validateAddress is validateEndpoints' switch on the addressType. IPv4: a legacy IP field, then an IPv4 one (that
 * error at the list's path, with no index) and ValidateEndpointIP. IPv6: IsValidIP (strict and canonical), then an IPv6
 * one and ValidateEndpointIP. FQDN: IsFullyQualifiedDomainName.
 */
function validateAddress(address: string, addressType: string, listPath: string, path: string): FieldError[] {
  switch (addressType) {
    case 'IPv4': {
      const ipErrs = isValidIPForLegacyField(path, address);
      if (ipErrs.length) return ipErrs;
      const errs = ipFamilyOf(address) === 'IPv4' ? [] : [invalidValue(listPath, address, 'must be an IPv4 address')];
      return [...errs, ...validateEndpointIP(address, path)];
    }
    case 'IPv6': {
      const ipErrs = isValidIP(path, address);
      if (ipErrs.length) return ipErrs;
      const errs = ipFamilyOf(address) === 'IPv6' ? [] : [invalidValue(listPath, address, 'must be an IPv6 address')];
      return [...errs, ...validateEndpointIP(address, path)];
    }
    case 'FQDN':
      return isFullyQualifiedDomainName(path, address);
    default:
      return [];
  }
}

/**
 * isFullyQualifiedDomainName is IsFullyQualifiedDomainName: required; a trailing dot dropped; a DNS subdomain (its
 * messages joined by ","), of two labels at least, each a DNS label (the first bad label is the value shown).
 */
export function isFullyQualifiedDomainName(path: string, value: string): FieldError[] {
  if (value.length === 0) return [required(path)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomainErrs = isDNS1123Subdomain(name);
  if (subdomainErrs.length) return [invalidValue(path, name, subdomainErrs.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalidValue(path, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const labelErrs = isDNS1123Label(label);
    if (labelErrs.length) return [invalidValue(path, label, labelErrs.join(','))];
  }
  return [];
}

/**
 * validatePorts is validatePorts: at most 20000; each name a DNS label when not empty and unique (the duplicate is the
 * *string, printed as JSON), the protocol required and supported (a *core.Protocol, JSON), the appProtocol a qualified
 * name. The port number is not validated.
 */
function validatePorts(ports: Rec[], path: string): FieldError[] {
  if (ports.length > MAX_PORTS) return [tooMany(path, ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names: string[] = [];
  ports.forEach((port, i) => {
    const at = index(path, i);
    const name = str(port['name']);
    if (name.length > 0) errs.push(...isDNS1123Label(name).map((msg) => invalidValue(child(at, 'name'), name, msg)));
    if (names.includes(name)) errs.push(duplicate(child(at, 'name'), asJSON(name)));
    else names.push(name);
    if (!set(port['protocol'])) errs.push(required(child(at, 'protocol')));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(str(port['protocol']))) {
      errs.push(notSupported(child(at, 'protocol'), asJSON(str(port['protocol'])), SUPPORTED_PORT_PROTOCOLS));
    }
    if (set(port['appProtocol'])) {
      const appProtocol = str(port['appProtocol']);
      errs.push(...isQualifiedName(appProtocol).map((msg) => invalidValue(child(at, 'appProtocol'), appProtocol, msg)));
    }
  });
  return errs;
}

/**
 * validateHints is validateHints: at most 8 forZones (more ends the check), each name unique and a label value; then
 * at most 8 forNodes (PreferSameTrafficDistribution is GA in 1.36, so they are kept), each unique and a DNS subdomain.
 */
function validateHints(hints: Rec, path: string): FieldError[] {
  const zones = list(hints['forZones']);
  if (zones.length > MAX_ZONE_HINTS) return [tooMany(child(path, 'forZones'), zones.length, MAX_ZONE_HINTS)];
  const errs = hintNames(zones, child(path, 'forZones'), isValidLabelValue);
  const nodes = list(hints['forNodes']);
  if (nodes.length > MAX_NODE_HINTS) return [...errs, tooMany(child(path, 'forNodes'), nodes.length, MAX_NODE_HINTS)];
  return [...errs, ...hintNames(nodes, child(path, 'forNodes'), isDNS1123Subdomain)];
}

/** hintNames checks one list of hints' names: each unique (a repeat is Duplicate) and of the form `check` asks. */
function hintNames(hints: readonly Rec[], path: string, check: (name: string) => string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  hints.forEach((hint, i) => {
    const at = child(index(path, i), 'name');
    const name = str(hint['name']);
    if (seen.has(name)) errs.push(duplicate(at, name));
    else seen.add(name);
    errs.push(...check(name).map((msg) => invalidValue(at, name, msg)));
  });
  return errs;
}

/** validateEndpointSliceUpdate is ValidateEndpointSliceUpdate's addressType rule (ValidateImmutableField). */
export function validateEndpointSliceUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const addressType = str(next['addressType']);
  return addressType === str(old['addressType']) ? [] : [invalidValue('addressType', asJSON(addressType), FIELD_IMMUTABLE)];
}

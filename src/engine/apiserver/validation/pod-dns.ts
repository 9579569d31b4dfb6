// A pod's name resolution: dnsPolicy, dnsConfig (required with None), hostAliases and hostnameOverride. See
// pkg/apis/core/validation/validation.go (validateDNSPolicy, validatePodDNSConfig, ValidateHostAliases, validatePodHostName).
import type { HostAlias, PodDNSConfig } from 'kubernetes-types/core/v1';
import { asJSON, child, type FieldError, forbidden, index, invalidValue, notSupported, required, tooLong } from './field-errors';
import { byteLength, IP_ERROR, isDNS1123Subdomain, isDNS1123SubdomainWithUnderscore, isValidIP } from './names';

const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
/** MAX_DNS_NAMESERVERS is MaxDNSNameservers. */
const MAX_DNS_NAMESERVERS = 3;
/** MAX_DNS_SEARCH_PATHS is MaxDNSSearchPaths. */
const MAX_DNS_SEARCH_PATHS = 32;
/** MAX_DNS_SEARCH_LIST_CHARS is MaxDNSSearchListChars. */
const MAX_DNS_SEARCH_LIST_CHARS = 2048;

/** validateIP is validation.IsValidIP. */
export function validateIP(value: string, path: string): FieldError[] {
  return isValidIP(value) ? [] : [invalidValue(path, value, IP_ERROR)];
}

/** validateDNSPolicy is validateDNSPolicy (the value is a *DNSPolicy, printed JSON-quoted). */
export function validateDNSPolicy(policy: string | undefined, path: string): FieldError[] {
  const p = policy ?? '';
  if (DNS_POLICIES.includes(p)) return [];
  if (p === '') return [required(path)];
  return [notSupported(path, asJSON(p), DNS_POLICIES)];
}

/**
 * validatePodDNSConfig is validatePodDNSConfig with AllowRelaxedDNSSearchValidation (GA in 1.34): None needs a config
 * with a nameserver; at most 3 nameservers, each an IP; at most 32 searches in 2048 characters, each a domain that
 * may hold underscores (a trailing dot and "." itself allowed); each option named.
 */
export function validatePodDNSConfig(config: PodDNSConfig | undefined, policy: string | undefined, path: string): FieldError[] {
  if (policy === 'None') {
    if (!config) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if ((config.nameservers ?? []).length === 0) return [required(child(path, 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!config) return [];
  const errs: FieldError[] = [];
  const nameservers = config.nameservers ?? [];
  if (nameservers.length > MAX_DNS_NAMESERVERS) errs.push(invalidValue(child(path, 'nameservers'), asJSON(nameservers), `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`));
  nameservers.forEach((ns, i) => errs.push(...validateIP(ns, index(child(path, 'nameservers'), i))));
  const searches = config.searches ?? [];
  if (searches.length > MAX_DNS_SEARCH_PATHS) errs.push(invalidValue(child(path, 'searches'), asJSON(searches), `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`));
  if (byteLength(searches.join(' ')) > MAX_DNS_SEARCH_LIST_CHARS) {
    errs.push(invalidValue(child(path, 'searches'), asJSON(searches), `must not have more than ${MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list`));
  }
  searches.forEach((search, i) => {
    if (search === '.') return;
    const trimmed = search.endsWith('.') ? search.slice(0, -1) : search;
    errs.push(...isDNS1123SubdomainWithUnderscore(trimmed).map((msg) => invalidValue(index(child(path, 'searches'), i), trimmed, msg)));
  });
  (config.options ?? []).forEach((option, i) => {
    if (!option.name) errs.push(required(index(child(path, 'options'), i), 'must not be empty'));
  });
  return errs;
}

/** validateHostAliases is ValidateHostAliases: each ip an IP, each hostname a DNS subdomain. */
export function validateHostAliases(aliases: HostAlias[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (aliases ?? []).forEach((alias, i) => {
    errs.push(...validateIP(alias.ip ?? '', child(index(path, i), 'ip')));
    (alias.hostnames ?? []).forEach((h, j) => errs.push(...isDNS1123Subdomain(h).map((msg) => invalidValue(index(child(index(path, i), 'hostnames'), j), h, msg))));
  });
  return errs;
}

/**
 * validatePodHostName is validatePodHostName (HostnameOverride, beta and on since 1.35): not with setHostnameAsFQDN
 * nor hostNetwork, at most 64 bytes, a DNS subdomain. See pkg/apis/core/validation/validation.go, v1.36.3.
 */
export function validatePodHostName(s: { hostnameOverride?: string | null; setHostnameAsFQDN?: boolean | null; hostNetwork?: boolean | null }, path: string): FieldError[] {
  const override = s.hostnameOverride;
  if (override === undefined || override === null) return [];
  const at = child(path, 'hostnameOverride');
  const errs: FieldError[] = [];
  if (s.setHostnameAsFQDN === true) errs.push(forbidden(at, 'may not be specified when setHostnameAsFQDN is true'));
  if (s.hostNetwork === true) errs.push(forbidden(at, 'may not be specified when hostNetwork is true'));
  if (byteLength(override) > 64) errs.push(tooLong(at, 64));
  errs.push(...isDNS1123Subdomain(override).map((msg) => invalidValue(at, override, msg)));
  return errs;
}

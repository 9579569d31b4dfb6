// Name rules: RFC 1123 subdomains and labels, with the exact messages of apimachinery's validation.
// See staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go.

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const subdomainRe = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const labelRe = new RegExp(`^${DNS1123_LABEL}$`);

/** isDNS1123Subdomain returns the problems of a name that must be a lowercase RFC 1123 subdomain. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!subdomainRe.test(value)) {
    errs.push(`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`);
  }
  return errs;
}

/** isDNS1123Label returns the problems of a name that must be a lowercase RFC 1123 label. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelRe.test(value)) {
    errs.push(`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`);
  }
  return errs;
}

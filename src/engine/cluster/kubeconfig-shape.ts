// The shape of a kubeconfig as client-go decodes it (staging/src/k8s.io/client-go/tools/clientcmd/api/v1/types.go,
// v0.36.0): a field of the wrong JSON type fails the whole file with encoding/json's message, which kubectl prints as
// `error loading config file "FILE": json: cannot unmarshal number into Go struct field Config.contexts of type
// []v1.NamedContext` (clientcmd/loader.go LoadFromFile, via runtime.Decode into v1.Config).

/** GoType is a Go type of the kubeconfig structs: a scalar, a slice, a map or a struct (by name, with its fields). */
type GoType =
  | { kind: 'string' | 'bool' | 'int64' | 'bytes' }
  | { kind: 'slice'; of: GoType }
  | { kind: 'map'; of: GoType }
  | { kind: 'struct'; name: string; fields: () => Record<string, GoType> }
  | { kind: 'any' };

const string: GoType = { kind: 'string' };
const bool: GoType = { kind: 'bool' };
const bytes: GoType = { kind: 'bytes' };
const any: GoType = { kind: 'any' };
const slice = (of: GoType): GoType => ({ kind: 'slice', of });
const map = (of: GoType): GoType => ({ kind: 'map', of });
const struct = (name: string, fields: () => Record<string, GoType>): GoType => ({ kind: 'struct', name, fields });

const namedExtension = struct('NamedExtension', () => ({ name: string, extension: any }));
const extensions = slice(namedExtension);
const cluster = struct('Cluster', () => ({
  server: string, 'tls-server-name': string, 'insecure-skip-tls-verify': bool, 'certificate-authority': string,
  'certificate-authority-data': bytes, 'proxy-url': string, 'disable-compression': bool, extensions,
}));
const execConfig = struct('ExecConfig', () => ({
  command: string, args: slice(string), env: slice(struct('ExecEnvVar', () => ({ name: string, value: string }))),
  apiVersion: string, installHint: string, provideClusterInfo: bool, interactiveMode: string,
}));
const authInfo = struct('AuthInfo', () => ({
  'client-certificate': string, 'client-certificate-data': bytes, 'client-key': string, 'client-key-data': bytes,
  token: string, tokenFile: string, as: string, 'as-uid': string, 'as-groups': slice(string), 'as-user-extra': map(slice(string)),
  username: string, password: string, 'auth-provider': struct('AuthProviderConfig', () => ({ name: string, config: map(string) })),
  exec: execConfig, extensions,
}));
const context = struct('Context', () => ({ cluster: string, user: string, namespace: string, extensions }));

/** CONFIG is v1.Config. */
const CONFIG = struct('Config', () => ({
  kind: string, apiVersion: string,
  preferences: struct('Preferences', () => ({ colors: bool, extensions })),
  clusters: slice(struct('NamedCluster', () => ({ name: string, cluster }))),
  users: slice(struct('NamedAuthInfo', () => ({ name: string, user: authInfo }))),
  contexts: slice(struct('NamedContext', () => ({ name: string, context }))),
  'current-context': string,
  extensions,
}));

/** goName is how encoding/json names a type in its message. */
function goName(t: GoType): string {
  switch (t.kind) {
    case 'bytes': return '[]uint8';
    case 'slice': return `[]${goName(t.of)}`;
    case 'map': return `map[string]${goName(t.of)}`;
    case 'struct': return `v1.${t.name}`;
    case 'any': return 'interface {}';
    default: return t.kind;
  }
}

/** jsonKind is encoding/json's word for a JSON value's type: "number 1.5" when a fraction meets an integer. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/** fits tells whether a JSON value decodes into the type (null decodes into anything). */
function fits(t: GoType, value: unknown): boolean {
  if (value === null || value === undefined || t.kind === 'any') return true;
  switch (t.kind) {
    case 'string': case 'bytes': return typeof value === 'string';
    case 'bool': return typeof value === 'boolean';
    case 'int64': return typeof value === 'number' && Number.isInteger(value);
    case 'slice': return Array.isArray(value);
    default: return typeof value === 'object' && !Array.isArray(value);
  }
}

/** KubeconfigShapeError is the first value that does not decode, with the path of its field for the line. */
export interface KubeconfigShapeError {
  path: string;
  message: string;
}

/**
 * checkKubeconfigShape finds the first value of the kubeconfig that client-go cannot decode, in document order, with
 * encoding/json's message: the innermost struct's name and the field path from the root (`NamedAuthInfo.users.user`).
 */
export function checkKubeconfigShape(object: unknown): KubeconfigShapeError | undefined {
  return check(CONFIG, object, 'Config', '', '');
}

function check(t: GoType, value: unknown, structName: string, jsonPath: string, fieldPath: string): KubeconfigShapeError | undefined {
  if (!fits(t, value)) {
    return { path: fieldPath, message: `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${structName}.${jsonPath} of type ${goName(t)}` };
  }
  if (value === null || value === undefined) return undefined;
  if (t.kind === 'slice') {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) {
      const problem = check(t.of, items[i], structName, jsonPath, `${fieldPath}[${i}]`);
      if (problem) return problem;
    }
  } else if (t.kind === 'map') {
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const problem = check(t.of, v, structName, jsonPath, fieldPath ? `${fieldPath}.${key}` : key);
      if (problem) return problem;
    }
  } else if (t.kind === 'struct') {
    const fields = t.fields();
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const ft = fields[key];
      // Unknown fields are ignored, as the lenient decoding of kubeconfigs does.
      if (!ft) continue;
      const problem = check(ft, v, t.name, jsonPath ? `${jsonPath}.${key}` : key, fieldPath ? `${fieldPath}.${key}` : key);
      if (problem) return problem;
    }
  }
  return undefined;
}

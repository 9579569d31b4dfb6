// YAML as kubectl -o yaml prints it: sigs.k8s.io/yaml turns the JSON into go-yaml v2 output — keys sorted, lists
// at their key's indentation, strings quoted only when plain text would read as something else, long lines folded.
// See gopkg.in/yaml.v2 (encode.go stringv, resolve.go, emitterc.go yaml_emitter_analyze_scalar and write_plain_scalar).

const BEST_WIDTH = 80;

/** RESOLVES_1_1 are the plain words YAML 1.1 reads as booleans or null, which go-yaml therefore quotes. */
const RESOLVES_1_1 = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  'on', 'On', 'ON', 'off', 'Off', 'OFF', '~', 'null', 'Null', 'NULL', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF',
  '-.inf', '-.Inf', '-.INF', '.nan', '.NaN', '.NAN', '<<',
]);

/** resolvesToNonString tells whether go-yaml's resolver would read a plain scalar as a number, bool, null or timestamp. */
function resolvesToNonString(s: string): boolean {
  if (s === '' || RESOLVES_1_1.has(s)) return true;
  const plain = s.replace(/_/g, '');
  if (/^[-+]?(0b[01]+|0x[0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.test(plain)) return true;
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain)) return true;
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(s)) return true; // base 60
  // Timestamps: a date, or a date and time (yaml.v2 resolve.go allowedTimestampFormats).
  return /^\d{4}-\d{1,2}-\d{1,2}([Tt ]|\s+)?(\d{1,2}:\d{2}:\d{2}(\.\d+)?(\s*(Z|[-+]\d{1,2}(:\d{2})?))?)?$/.test(s) && /^\d{4}-\d{1,2}-\d{1,2}(?:$|[Tt\s])/.test(s);
}

/** plainAllowed is go-yaml's scalar analysis for a block context: no indicator at the start, no ": " or " #", no edge spaces. */
function plainAllowed(s: string): boolean {
  if (s === '' || /^\s|\s$/.test(s)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s)) {
    // '-', '?' and ':' start a plain scalar when followed by a non-blank.
    if (!/^[-?:][^\s]/.test(s)) return false;
  }
  if (/: |:$| #/.test(s)) return false;
  // Special characters (controls, BOM, non-printables) need the double-quoted style.
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufeff]/.test(s);
}

const dq = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t').replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}"`;

/** fold writes a plain or single-quoted scalar, breaking at a space once the column passes 80, as write_plain_scalar does. */
function fold(s: string, column: number, indent: number): string {
  let out = '';
  let col = column;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === ' ' && col > BEST_WIDTH && s[i + 1] !== ' ' && s[i - 1] !== ' ') {
      out += `\n${' '.repeat(indent)}`;
      col = indent;
      continue;
    }
    out += c;
    col++;
  }
  return out;
}

function scalar(s: string, column: number, indent: number): string {
  if (s.includes('\n')) {
    const chomp = s.endsWith('\n') ? (s.endsWith('\n\n') ? '+' : '') : '-';
    const body = s.endsWith('\n') ? s.slice(0, -1) : s;
    const lead = body.startsWith(' ') ? '2' : '';
    return `|${lead}${chomp}\n${body.split('\n').map((l) => (l === '' ? '' : ' '.repeat(indent) + l)).join('\n')}`;
  }
  if (resolvesToNonString(s)) return dq(s);
  if (plainAllowed(s)) return fold(s, column, indent);
  if (/[\u0000-\u001f\u007f\ufeff]/.test(s)) return dq(s);
  return fold(`'${s.replace(/'/g, "''")}'`, column, indent);
}

function leaf(v: unknown, column: number, indent: number): string | undefined {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return scalar(v, column, indent);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (typeof v === 'object' && Object.keys(v).length === 0) return '{}';
  return undefined;
}

function emit(v: unknown, indent: number, lines: string[], firstPrefix: string | undefined): void {
  const pad = ' '.repeat(indent);
  let first = firstPrefix;
  const line = (text: string) => {
    lines.push(first !== undefined ? first + text : pad + text);
    first = undefined;
  };
  if (Array.isArray(v)) {
    for (const item of v) {
      const simple = leaf(item, indent + 2, indent + 2);
      if (simple !== undefined) line(`- ${simple}`);
      else emit(item, indent + 2, lines, `${first ?? pad}- `), (first = undefined);
    }
    return;
  }
  for (const key of Object.keys(v as object).sort()) {
    const value = (v as Record<string, unknown>)[key];
    const k = scalar(key, indent, indent);
    const simple = leaf(value, indent + k.length + 2, indent + 2);
    if (simple !== undefined) line(`${k}: ${simple}`);
    else {
      line(`${k}:`);
      emit(value, Array.isArray(value) ? indent : indent + 2, lines, undefined);
    }
  }
}

/** goYaml prints a JSON value as kubectl -o yaml does. */
export function goYaml(value: unknown): string {
  const simple = leaf(value, 0, 0);
  if (simple !== undefined) return `${simple}\n`;
  const lines: string[] = [];
  emit(value, 0, lines, undefined);
  return `${lines.join('\n')}\n`;
}

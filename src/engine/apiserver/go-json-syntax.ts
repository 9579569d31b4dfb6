// encoding/json's syntax errors for the usual mistakes, for the API server's checks of JSON carried inside objects
// (a namespace's toleration annotations, a docker config Secret's value).

/** goQuoteChar is how encoding/json quotes a character in a syntax error ('x', '\'', '"'). */
const goQuoteChar = (c: string): string => (c === "'" ? "'\\''" : c === '"' ? "'\"'" : `'${JSON.stringify(c).slice(1, -1)}'`);

/**
 * goJsonSyntaxError finds the first character encoding/json's scanner stops at in text JSON.parse refused, with its
 * message (`invalid character 'x' looking for beginning of value`, `unexpected end of JSON input`). See
 * encoding/json/scanner.go.
 */
export function goJsonSyntaxError(text: string): string {
  let i = 0;
  const ws = (): void => { while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++; };
  const fail = (context: string): never => {
    throw new Error(i >= text.length ? 'unexpected end of JSON input' : `invalid character ${goQuoteChar(text[i]!)} ${context}`);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('looking for beginning of object key string');
        string(); ws();
        if (text[i] !== ':') fail('after object key');
        i++; value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        fail('after object key:value pair');
      }
    }
    if (c === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        fail('after array element');
      }
    }
    if (c === '"') return string();
    const literal = /^(true|false|null|-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)/.exec(text.slice(i));
    if (!literal) fail('looking for beginning of value');
    i += literal![0].length;
  };
  const string = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i]! < ' ') fail('in string literal');
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail('');
    i++;
  };
  try {
    value(); ws();
    if (i < text.length) fail('after top-level value');
  } catch (err) {
    return (err as Error).message;
  }
  return 'unexpected end of JSON input';
}

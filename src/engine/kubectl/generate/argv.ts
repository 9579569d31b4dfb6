// A kubectl command line given as one string (a launch configuration's "kubectl"), split into words as a POSIX shell
// splits them: blanks separate words, single quotes keep everything, double quotes keep all but \" \\ \$ \`, and a
// backslash outside quotes keeps the next character. No expansion ($VAR, globs) is done.

/** splitCommandLine returns the words of a command line, or what is wrong with it (an unterminated quote). */
export function splitCommandLine(line: string): string[] | string {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return `the single quote at character ${i + 1} is not closed`;
      word += line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1]!)) {
          if (line[j + 1] !== '\n') word += line[j + 1];
          j++;
        } else {
          word += line[j];
        }
      }
      if (j >= line.length) return `the double quote at character ${i + 1} is not closed`;
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return 'the command line ends with a lone backslash';
      if (line[i + 1] !== '\n') word += line[i + 1];
      i++;
    } else {
      word += c;
    }
  }
  if (inWord) words.push(word);
  return words;
}

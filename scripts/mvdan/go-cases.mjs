// Reads the {in, want} pairs of mvdan/sh's interp tests (interp/interp_test.go) from its Go source:
// the composite literals of the runTest tables, each element two string expressions (interpreted
// "..." or raw `...` literals, joined by +). Only the source text is read; nothing of it is kept.

const TABLES = ['runTests', 'runTestsUnix', 'runTests64bit'];

// The one identifier the tables use in a string expression (the program they expect on PATH).
const IDENTIFIERS = { pathProg: 'sh' };

const ESCAPES = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

// The value of the interpreted literal starting at src[i] (a '"'), and where it ends.
function readInterpreted(src, i) {
  const bytes = [];
  const push = (text) => bytes.push(...Buffer.from(text, 'utf8'));
  let k = i + 1;
  while (src[k] !== '"') {
    if (src[k] !== '\\') {
      const cp = src.codePointAt(k);
      push(String.fromCodePoint(cp));
      k += cp > 0xffff ? 2 : 1;
      continue;
    }
    const c = src[k + 1];
    if (c in ESCAPES) {
      push(ESCAPES[c]);
      k += 2;
    } else if (c === 'x') {
      bytes.push(Number.parseInt(src.slice(k + 2, k + 4), 16));
      k += 4;
    } else if (c === 'u' || c === 'U') {
      const n = c === 'u' ? 4 : 8;
      push(String.fromCodePoint(Number.parseInt(src.slice(k + 2, k + 2 + n), 16)));
      k += 2 + n;
    } else if (c >= '0' && c <= '7') {
      bytes.push(Number.parseInt(src.slice(k + 1, k + 4), 8));
      k += 4;
    } else throw new Error(`unknown escape \\${c} at offset ${k}`);
  }
  return { value: Buffer.from(bytes).toString('latin1'), end: k + 1, bytes: Buffer.from(bytes) };
}

// Skips blanks and comments from i.
function skipSpace(src, i) {
  for (;;) {
    if (/\s/.test(src[i] ?? '')) i++;
    else if (src.startsWith('//', i)) i = src.indexOf('\n', i);
    else if (src.startsWith('/*', i)) i = src.indexOf('*/', i) + 2;
    else return i;
  }
}

// One string expression: literals joined by '+'. Returns its bytes and where it ends.
function readStringExpr(src, i) {
  const parts = [];
  for (;;) {
    i = skipSpace(src, i);
    if (src[i] === '"') {
      const lit = readInterpreted(src, i);
      parts.push(lit.bytes);
      i = lit.end;
    } else if (src[i] === '`') {
      const end = src.indexOf('`', i + 1);
      parts.push(Buffer.from(src.slice(i + 1, end).replaceAll('\r', ''), 'utf8'));
      i = end + 1;
    } else if (/^[A-Za-z_]/.test(src[i] ?? '')) {
      const name = /^[A-Za-z_]\w*/.exec(src.slice(i))[0];
      if (!(name in IDENTIFIERS)) throw new Error(`unknown identifier ${name} at offset ${i}`);
      parts.push(Buffer.from(IDENTIFIERS[name], 'utf8'));
      i += name.length;
    } else throw new Error(`not a string literal at offset ${i}: ${src.slice(i, i + 40)}`);
    const next = skipSpace(src, i);
    if (src[next] !== '+') return { bytes: Buffer.concat(parts), end: i };
    i = next + 1;
  }
}

// The elements of one table: [{table, index, line, in (Buffer), want (string)}].
function readTable(src, name) {
  const head = src.indexOf(`var ${name} = []runTest{`);
  if (head < 0) return [];
  let i = src.indexOf('{', head + `var ${name} = []runTest`.length) + 1;
  const cases = [];
  for (;;) {
    i = skipSpace(src, i);
    if (src[i] === '}') return cases;
    if (src[i] !== '{') throw new Error(`expected an element at offset ${i}`);
    const line = src.slice(0, i).split('\n').length;
    const first = readStringExpr(src, i + 1);
    let k = skipSpace(src, first.end);
    if (src[k] !== ',') throw new Error(`expected , at offset ${k}`);
    const second = readStringExpr(src, k + 1);
    k = skipSpace(src, second.end);
    if (src[k] === ',') k = skipSpace(src, k + 1);
    if (src[k] !== '}') throw new Error(`expected } at offset ${k}`);
    cases.push({
      table: name,
      index: cases.length,
      line,
      in: first.bytes,
      want: second.bytes.toString('utf8'),
    });
    i = skipSpace(src, k + 1);
    if (src[i] === ',') i++;
  }
}

export function readCases(source) {
  return TABLES.flatMap((name) => readTable(source, name));
}

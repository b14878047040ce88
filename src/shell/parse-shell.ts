import type { ListItem, Pipeline, Script, SimpleCommand, Word } from '../model/shell-syntax.js';
import { assignmentOf } from './assignment.js';
import { isInertBody, readHeredocBody } from './heredoc-substitution.js';
import { isRedirectStart, type PendingHeredoc, parseRedirect } from './parse-redirect.js';
import { KEEP_JOBS, refuseConstruct, refuseSyntax } from './refuse.js';
import { checkAssignedName, checkCommandWord, checkLeadingWord } from './reserved-words.js';
import { scanWord } from './scan-word.js';
import { checkControlCharacters, SourceText } from './source-text.js';

// Parses -c text into lists of pipelines of simple commands. Anything bash would read as another
// construct (loops, groups, subshells, functions, background jobs...) is refused with its column.
export function parseShell(text: string): Script {
  const parser = new ShellParser(new SourceText(text));
  return { text, items: parser.parseList() };
}

class ShellParser {
  private i = 0;
  private pending: PendingHeredoc[] = [];

  constructor(private readonly source: SourceText) {
    checkControlCharacters(source);
  }

  private get c(): string | undefined {
    return this.source.chars[this.i];
  }

  private at(text: string): boolean {
    return this.source.startsWith(text, this.i);
  }

  // Blanks, line continuations and comments; newlines too when `newlines` (after | && ||).
  private skip(newlines: boolean): void {
    for (;;) {
      const c = this.c;
      if (c === ' ' || c === '\t') this.i += 1;
      else if (c === '\\' && this.source.chars[this.i + 1] === '\n') this.i += 2;
      else if (c === '#') while (this.c !== undefined && this.c !== '\n') this.i += 1;
      else if (c === '\n' && newlines) this.newline();
      else return;
    }
  }

  // An unquoted newline: the bodies of the here-documents of the line follow it.
  private newline(): void {
    this.i += 1;
    for (const doc of this.pending) {
      const found = readHeredocBody(this.source, this.i, doc.delimiter, doc.stripTabs);
      if (!doc.quoted && !isInertBody(found.body)) {
        refuseConstruct(
          'syntax.heredoc',
          `<<${doc.delimiter}`,
          doc.redirect.col,
          "has an unquoted delimiter and a body with $, ` or \\, which bash would expand; quote the delimiter (<<'EOF') to pass the body as written",
        );
      }
      doc.redirect.body = found.body;
      this.i = found.end;
    }
    this.pending = [];
  }

  parseList(): ListItem[] {
    const items: ListItem[] = [];
    let connector: ListItem['connector'] = null;
    for (;;) {
      this.skip(true);
      if (this.c === undefined) {
        if (connector === '&&' || connector === '||') this.unexpected('end of text');
        break;
      }
      const pipeline = this.parsePipeline();
      items.push({ connector: items.length === 0 ? null : connector, pipeline });
      this.skip(false);
      const c = this.c;
      if (c === undefined) break;
      if (c === '\n') {
        this.newline();
        connector = ';';
      } else if (this.at('&&') || this.at('||')) {
        connector = this.at('&&') ? '&&' : '||';
        this.i += 2;
      } else if (this.at(';;') || this.at(';&')) {
        refuseSyntax(
          'syntax.unexpected',
          this.i + 1,
          `"${this.source.slice(this.i, this.i + 2)}" at column ${this.i + 1} is a case terminator outside a case statement (a syntax error in bash)`,
        );
      } else if (c === ';') {
        connector = ';';
        this.i += 1;
        this.skip(false);
        if (this.c === ';') this.unexpected(';');
      } else if (c === '&') {
        refuseConstruct('syntax.background', '&', this.i + 1, 'runs a command in the background', KEEP_JOBS);
      } else this.unexpected(c);
    }
    if (items.length === 0) {
      refuseSyntax('syntax.empty', 1, "there is no command to run; give one, as in: -c 'ls | wc -l'");
    }
    if (this.pending.length > 0) this.newline();
    return items;
  }

  private unexpected(what: string): never {
    const col = this.i + 1;
    if (what === '(' && this.source.chars[this.i + 1] === '(') {
      refuseConstruct('syntax.arithmetic', 'arithmetic command (( ... ))', col, 'evaluates arithmetic');
    }
    if (what === '(' || what === ')') {
      refuseConstruct('syntax.subshell', 'subshell ( ... )', col, 'runs commands in a subshell');
    }
    return refuseSyntax(
      'syntax.unexpected',
      col,
      `unexpected ${what === 'end of text' ? 'end of text' : what === '\n' ? 'end of line' : `"${what}"`} at column ${col} (a syntax error in bash)`,
    );
  }

  private parsePipeline(): Pipeline {
    const start = this.i;
    const negated = this.parseBangs();
    const commands = [this.parseCommand()];
    for (;;) {
      this.skip(false);
      if (this.c !== '|' || this.at('||')) break;
      if (this.at('|&')) {
        const last = commands.at(-1)!;
        last.redirects.push({
          raw: '|&',
          col: this.i + 1,
          line: this.source.lineAt(this.i),
          op: 'dup',
          fd: 2,
          target: null,
          dupFrom: 1,
          body: null,
        });
        this.i += 2;
      } else this.i += 1;
      this.skip(true);
      if (this.c === undefined) this.unexpected('end of text');
      commands.push(this.parseCommand());
    }
    const text = this.source.slice(start, this.i).trim();
    return {
      commands,
      text,
      col: start + 1,
      line: this.source.lineAt(start),
      ...(negated ? { negated } : {}),
    };
  }

  // `!` as a word of its own before a pipeline (bash's reserved word; `!x` is a command named "!x"):
  // whether an odd number of them invert its status.
  private parseBangs(): boolean {
    let negated = false;
    let first: number | null = null;
    for (;;) {
      this.skip(false);
      const after = this.source.chars[this.i + 1];
      if (this.c !== '!' || (after !== ' ' && after !== '\t')) break;
      first ??= this.i;
      negated = !negated;
      this.i += 1;
    }
    // `! ;` is a negated empty pipeline to bash (status 1), nothing safe-run can run as a stage.
    if (first !== null && (this.c === undefined || ';&|\n'.includes(this.c))) {
      refuseConstruct('syntax.reserved', 'negation !', first + 1, 'with no command after it is bash syntax');
    }
    return negated;
  }

  private parseCommand(): SimpleCommand {
    const start = this.i;
    const command: SimpleCommand = {
      assignments: [],
      words: [],
      redirects: [],
      text: '',
      col: start + 1,
      line: this.source.lineAt(start),
    };
    for (;;) {
      this.skip(false);
      const c = this.c;
      if (c === undefined) break;
      if (isRedirectStart(this.source, this.i)) {
        const { redirect, end, heredoc } = parseRedirect(this.source, this.i);
        command.redirects.push(redirect);
        if (heredoc) this.pending.push(heredoc);
        this.i = end;
        continue;
      }
      if (c === '(' || c === ')') {
        if (c === '(' && command.words.length === 1 && command.assignments.length === 0) {
          refuseConstruct('syntax.function', 'function definition', command.col, 'defines a shell function');
        }
        if (c === '(' && command.words.length === 0 && command.assignments.length > 0) {
          refuseConstruct('syntax.array', 'array assignment', this.i + 1, 'assigns a bash array');
        }
        this.unexpected(c);
      }
      if ('|&;\n'.includes(c)) break;
      const { word, end } = scanWord(this.source, this.i);
      this.i = end;
      if (/^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(word.raw) && (this.c === '<' || this.c === '>')) {
        refuseConstruct(
          'syntax.redirect-fd',
          `${word.raw}${this.c}`,
          word.col,
          'allocates a file descriptor into a variable',
        );
      }
      this.addWord(command, word);
    }
    if (command.words.length === 0 && command.assignments.length === 0) {
      if (command.redirects.length > 0) {
        refuseConstruct(
          'syntax.redirect-only',
          command.redirects[0]!.raw,
          command.col,
          'is a redirection without a command',
        );
      }
      this.unexpected(this.c === undefined ? 'end of text' : this.c);
    }
    command.text = this.source.slice(start, this.i).trim();
    return command;
  }

  private addWord(command: SimpleCommand, word: Word): void {
    if (command.words.length === 0) {
      checkLeadingWord(word, command.assignments.length > 0 || command.redirects.length > 0);
      const assignment = assignmentOf(word);
      if (assignment) {
        checkAssignedName(assignment.name, word.col);
        command.assignments.push(assignment);
        return;
      }
      checkCommandWord(word);
    }
    command.words.push(word);
  }
}

/** Where a text stops being JSON, and what JSON would have had there. */
export interface JsonErrorPlace {
  /** Characters before the place (0-based). */
  offset: number;
  /** 1-based, as editors count. */
  line: number;
  column: number;
  expected: string;
  /** What is there instead: `'x'`, or `the end of the file`. */
  found: string;
}

const VALUE = "a value (object, array, string, number, true, false or null)";
const NAME = "a property name in double quotes";

/**
 * The first place `text` breaks JSON's grammar, read as JSON.parse reads it; undefined when it is JSON.
 * JSON.parse's own message gives neither the line nor, at the end of the input, what was expected.
 */
export function locateJsonError(text: string): JsonErrorPlace | undefined {
  const reader = new JsonReader(text);
  try {
    reader.value(VALUE);
    reader.space();
    if (!reader.atEnd()) throw new Stop(reader.at, "the end of the file (one JSON value per file)");
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return place(text, error.at, error.expected);
  }
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

/** A JSON reader that only checks: it throws Stop where the grammar breaks. */
class JsonReader {
  at = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.at >= this.text.length;
  }

  space(): void {
    while (" \t\n\r".includes(this.text[this.at] ?? "x")) this.at++;
  }

  /** A value here (after white space); `expected` is what is said when none starts here. */
  value(expected: string): void {
    this.space();
    const c = this.text[this.at] ?? "";
    if (c === "{") return this.sequence("}", (e) => this.property(e), `${NAME} or '}'`, NAME);
    if (c === "[") return this.sequence("]", (e) => this.value(e), `${VALUE} or ']'`, VALUE);
    if (c === '"') return this.string();
    if (c === "-" || /[0-9]/.test(c)) return this.number();
    for (const word of ["true", "false", "null"]) {
      const rest = this.text.slice(this.at);
      if (rest.startsWith(word)) return void (this.at += word.length);
      if (rest !== "" && word.startsWith(rest)) throw new Stop(this.text.length, `the rest of '${word}'`);
    }
    throw new Stop(this.at, expected);
  }

  /** `{…}` or `[…]`: items separated by commas; none after the last comma. */
  private sequence(close: string, item: (expected: string) => void, first: string, next: string): void {
    this.at++;
    this.space();
    if (this.text[this.at] === close) return void this.at++;
    for (let expected = first; ; expected = next) {
      item(expected);
      this.space();
      if (this.text[this.at] === close) return void this.at++;
      this.expect(",", `',' or '${close}'`);
      this.space();
    }
  }

  private property(expected: string): void {
    if (this.text[this.at] !== '"') throw new Stop(this.at, expected);
    this.string();
    this.space();
    this.expect(":", "':' after the property name");
    this.value(VALUE);
  }

  private string(): void {
    this.at++;
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined) throw new Stop(this.at, "'\"' closing the string");
      if (c === '"') return void this.at++;
      if (c < " ") throw new Stop(this.at, "'\"' closing the string (a line break in a string must be written \\n)");
      this.at++;
      if (c === "\\") this.escape();
    }
  }

  private escape(): void {
    const c = this.text[this.at] ?? "";
    if (c !== "u") {
      if (c === "" || !'"\\/bfnrt'.includes(c)) throw new Stop(this.at, 'an escape (one of " \\ / b f n r t u)');
      return void this.at++;
    }
    this.at++;
    for (let k = 0; k < 4; k++, this.at++)
      if (!/[0-9a-fA-F]/.test(this.text[this.at] ?? "")) throw new Stop(this.at, "four hex digits after \\u");
  }

  private number(): void {
    if (this.text[this.at] === "-") this.at++;
    if (this.text[this.at] === "0") this.at++;
    else this.digits("a digit");
    if (this.text[this.at] === ".") {
      this.at++;
      this.digits("a digit after the decimal point");
    }
    if (this.text[this.at] === "e" || this.text[this.at] === "E") {
      this.at++;
      if (this.text[this.at] === "+" || this.text[this.at] === "-") this.at++;
      this.digits("a digit of the exponent");
    }
  }

  private digits(expected: string): void {
    if (!/[0-9]/.test(this.text[this.at] ?? "")) throw new Stop(this.at, expected);
    while (/[0-9]/.test(this.text[this.at] ?? "")) this.at++;
  }

  private expect(char: string, expected: string): void {
    if (this.text[this.at] !== char) throw new Stop(this.at, expected);
    this.at++;
  }
}

function place(text: string, offset: number, expected: string): JsonErrorPlace {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  const char = offset < text.length ? String.fromCodePoint(text.codePointAt(offset)!) : undefined;
  const found =
    char === undefined ? "the end of the file" : char < " " || char === "'" ? JSON.stringify(char) : `'${char}'`;
  return { offset, line, column, expected, found };
}

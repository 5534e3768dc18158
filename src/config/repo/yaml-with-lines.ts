import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from "yaml";

/** A YAML text read for its value, with the line of each key path in it. */
export interface YamlWithLines {
  /** The value; undefined when the text has a syntax error (nothing of it is used then). */
  value: unknown;
  /** The first syntax error, with its line (later ones usually follow from it). */
  syntaxError?: { line?: number; message: string };
  /** The line of the key (or list item) at a path; for a path only partly there, the deepest part found. */
  lineOf(path: readonly PropertyKey[]): number | undefined;
}

/** Parses YAML with the `yaml` package's document API, keeping where each node sits. */
export function yamlWithLines(text: string): YamlWithLines {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const lineAt = (offset: number | undefined) => (offset === undefined ? undefined : counter.linePos(offset).line);
  const lineOf = (path: readonly PropertyKey[]) => {
    let node: unknown = doc.contents;
    let line: number | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment);
        if (!pair) break;
        line = lineAt((pair.key as Node | null)?.range?.[0]) ?? line;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === "number") {
        const item = node.items[segment] as Node | undefined;
        if (!item) break;
        line = lineAt(item.range?.[0]) ?? line;
        node = item;
      } else break;
    }
    return line;
  };
  const [error] = doc.errors;
  if (error) {
    const message = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    return { value: undefined, syntaxError: { line: error.linePos?.[0].line, message }, lineOf };
  }
  try {
    return { value: doc.toJS(), lineOf };
  } catch (failure) {
    // e.g. too many aliases: the text is YAML, its value is not one to use
    return { value: undefined, syntaxError: { message: (failure as Error).message.split("\n")[0]! }, lineOf };
  }
}

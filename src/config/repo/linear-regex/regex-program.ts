import type { Assertion, RegexNode } from "./regex-node.js";
import { UnsupportedPatternError } from "./unsupported-pattern-error.js";

/** Instruction codes: test a character, fork, jump, test an assertion, accept. */
export const CHAR = 0;
export const SPLIT = 1;
export const JMP = 2;
export const ASSERT = 3;
export const MATCH = 4;

export const ASSERTIONS: readonly Assertion[] = ["start", "end", "word", "not-word"];

/**
 * A Thompson program: instruction `pc` is `ops[pc]` with operands `a[pc]` (the character test's index,
 * the jump or first fork's target, the assertion's index) and `b[pc]` (the second fork's target).
 */
export interface RegexProgram {
  ops: number[];
  a: number[];
  b: number[];
  /** The source of each distinct one-character test (`a`, `[^/]`, `\d`). */
  chars: string[];
}

/**
 * Compiles parsed nodes into a program of at most `maxInstructions` instructions; counted repetitions
 * are written out, so `(a{100}){100}` is 10,000 instructions. Past the limit: `UnsupportedPatternError`.
 */
export function compileProgram(node: RegexNode, maxInstructions: number): RegexProgram {
  const program: RegexProgram = { ops: [], a: [], b: [], chars: [] };
  new Emitter(program, maxInstructions).node(node);
  program.ops.push(MATCH);
  program.a.push(0);
  program.b.push(0);
  return program;
}

class Emitter {
  private readonly charIndex = new Map<string, number>();

  constructor(
    private readonly p: RegexProgram,
    private readonly max: number,
  ) {}

  node(node: RegexNode): void {
    if (node.kind === "char") this.emit(CHAR, this.char(node.source));
    else if (node.kind === "assert") this.emit(ASSERT, ASSERTIONS.indexOf(node.at));
    else if (node.kind === "concat") for (const item of node.items) this.node(item);
    else if (node.kind === "alt") this.alternation(node.options);
    else if (node.kind === "repeat") this.repeat(node.item, node.min, node.max);
  }

  private alternation(options: RegexNode[]): void {
    const exits: number[] = [];
    for (const option of options.slice(0, -1)) {
      const fork = this.emit(SPLIT, this.here + 1);
      this.node(option);
      exits.push(this.emit(JMP));
      this.p.b[fork] = this.here;
    }
    this.node(options.at(-1)!);
    for (const exit of exits) this.p.a[exit] = this.here;
  }

  private repeat(item: RegexNode, min: number, max: number): void {
    if (max === 0 || emitsNothing(item)) return; // the empty string, however often
    for (let i = 0; i < min; i++) this.node(item);
    if (max === Infinity) {
      const fork = this.emit(SPLIT, this.here + 1);
      this.node(item);
      this.emit(JMP, fork);
      this.p.b[fork] = this.here;
      return;
    }
    const forks: number[] = [];
    for (let i = min; i < max; i++) {
      forks.push(this.emit(SPLIT, this.here + 1));
      this.node(item);
    }
    for (const fork of forks) this.p.b[fork] = this.here;
  }

  private char(source: string): number {
    let index = this.charIndex.get(source);
    if (index === undefined) {
      index = this.p.chars.push(source) - 1;
      this.charIndex.set(source, index);
    }
    return index;
  }

  private get here(): number {
    return this.p.ops.length;
  }

  private emit(op: number, a = 0, b = 0): number {
    if (this.here >= this.max) {
      throw new UnsupportedPatternError(`more than ${this.max} steps once its counted repetitions are written out`);
    }
    this.p.ops.push(op);
    this.p.a.push(a);
    this.p.b.push(b);
    return this.here - 1;
  }
}

function emitsNothing(node: RegexNode): boolean {
  if (node.kind === "empty") return true;
  if (node.kind === "concat") return node.items.every(emitsNothing);
  if (node.kind === "alt") return node.options.every(emitsNothing);
  return node.kind === "repeat" && (node.max === 0 || emitsNothing(node.item));
}

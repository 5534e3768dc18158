import { ASSERT, CHAR, JMP, MATCH, SPLIT, type RegexProgram } from "./regex-program.js";

const UNKNOWN = 0;
const YES = 1;
const NO = 2;

/** The text a program runs on, and how its character tests and assertions read it. */
export interface ProgramInput {
  /** The text's characters: code points under `u`/`v`, UTF-16 code units otherwise. */
  chars: readonly string[];
  /** Whether the program's character test `index` accepts `char`. */
  accepts(index: number, char: string): boolean;
  /** Whether the assertion `index` holds at `pos` (between `chars[pos - 1]` and `chars[pos]`). */
  holds(index: number, pos: number): boolean;
}

/**
 * Whether the program matches anywhere in the input, by a Pike VM: every live thread advances one
 * character at a time, and each instruction holds at most one thread per position, so the work is
 * O(characters × instructions) whatever the pattern — nothing is ever retried.
 */
export function runRegexProgram(program: RegexProgram, input: ProgramInput): boolean {
  const size = program.ops.length;
  let current = new ThreadSet(size);
  let next = new ThreadSet(size);
  // each instruction is pushed at most twice per follow (once per fork or jump into it)
  const follow = followInto(program, input, new Int32Array(2 * size + 1));
  // each character test is asked once per position, however many threads wait on it
  const verdicts = new Uint8Array(program.chars.length);
  for (let pos = 0; ; pos++) {
    // a thread starts at every position: the match may begin anywhere
    if (follow(current, 0, pos)) return true;
    if (pos === input.chars.length) return false;
    const char = input.chars[pos]!;
    verdicts.fill(UNKNOWN);
    next.clear();
    for (let i = 0; i < current.size; i++) {
      const pc = current.dense[i]!;
      if (program.ops[pc] !== CHAR) continue;
      const test = program.a[pc]!;
      if (verdicts[test] === UNKNOWN) verdicts[test] = input.accepts(test, char) ? YES : NO;
      if (verdicts[test] === YES && follow(next, pc + 1, pos + 1)) return true;
    }
    [current, next] = [next, current];
  }
}

/**
 * Adds `start`, and every instruction reachable from it at `pos` without reading a character, to
 * `threads`; true when that reaches a match.
 */
function followInto(program: RegexProgram, input: ProgramInput, stack: Int32Array) {
  const { ops, a, b } = program;
  return (threads: ThreadSet, start: number, pos: number): boolean => {
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const pc = stack[--top]!;
      if (threads.has(pc)) continue;
      threads.add(pc);
      const op = ops[pc];
      if (op === MATCH) return true;
      if (op === JMP) stack[top++] = a[pc]!;
      else if (op === SPLIT) {
        stack[top++] = b[pc]!;
        stack[top++] = a[pc]!;
      } else if (op === ASSERT && input.holds(a[pc]!, pos)) stack[top++] = pc + 1;
    }
    return false;
  };
}

/** A set of instructions, cleared in constant time (a sparse set). */
class ThreadSet {
  readonly dense: Int32Array;
  private readonly sparse: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.dense = new Int32Array(capacity);
    this.sparse = new Int32Array(capacity);
  }

  has(pc: number): boolean {
    const i = this.sparse[pc]!;
    return i < this.size && this.dense[i] === pc;
  }

  add(pc: number): void {
    this.sparse[pc] = this.size;
    this.dense[this.size++] = pc;
  }

  clear(): void {
    this.size = 0;
  }
}

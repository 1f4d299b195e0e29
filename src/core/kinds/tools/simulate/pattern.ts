// Strings for a schema's `pattern`: a small generator for the regular-expression subset tool schemas use (anchors,
// literals, escapes, classes, groups with alternatives, quantifiers). What it makes is checked with the real
// RegExp; a pattern outside the subset yields null and the caller says the value cannot be made up.
import type { Draw } from "./draw";
import { safeRegExp } from "./validate";

type Node = { kind: "chars"; set: string } | { kind: "group"; alts: Node[][] } | { kind: "repeat"; node: Node; min: number; max: number };

const DIGITS = "0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();
const WORD = `${LOWER}${UPPER}${DIGITS}_`;

class Parser {
  i = 0;
  constructor(private readonly src: string) {}
  fail(): never {
    throw new Error("unsupported");
  }
  alts(): Node[][] {
    const out: Node[][] = [[]];
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === ")") break;
      if (c === "|") {
        this.i++;
        out.push([]);
        continue;
      }
      out[out.length - 1].push(this.quantified(this.atom()));
    }
    return out;
  }
  atom(): Node {
    const c = this.src[this.i++];
    if (c === "^" || c === "$") return { kind: "chars", set: "" };
    if (c === "(") {
      if (this.src.startsWith("?:", this.i)) this.i += 2;
      const alts = this.alts();
      if (this.src[this.i++] !== ")") this.fail();
      return { kind: "group", alts };
    }
    if (c === "[") return { kind: "chars", set: this.klass() };
    if (c === "\\") return { kind: "chars", set: this.escape() };
    if (c === ".") return { kind: "chars", set: `${LOWER}${DIGITS}` };
    if ("*+?{}".includes(c)) this.fail();
    return { kind: "chars", set: c };
  }
  escape(): string {
    const e = this.src[this.i++];
    if (e === "d") return DIGITS;
    if (e === "w") return WORD;
    if (e === "s") return " ";
    if (e === undefined || /[A-Za-z]/.test(e)) this.fail();
    return e;
  }
  klass(): string {
    if (this.src[this.i] === "^") this.fail();
    let set = "";
    while (this.i < this.src.length && this.src[this.i] !== "]") {
      let c = this.src[this.i++];
      if (c === "\\") {
        set += this.escape();
        continue;
      }
      if (this.src[this.i] === "-" && this.src[this.i + 1] !== "]" && this.i + 1 < this.src.length) {
        const end = this.src[this.i + 1];
        this.i += 2;
        for (let code = c.charCodeAt(0); code <= end.charCodeAt(0); code++) set += String.fromCharCode(code);
        continue;
      }
      set += c;
    }
    if (this.src[this.i++] !== "]") this.fail();
    return set;
  }
  quantified(node: Node): Node {
    const c = this.src[this.i];
    if (c === "?") return this.i++, { kind: "repeat", node, min: 0, max: 1 };
    if (c === "*") return this.i++, { kind: "repeat", node, min: 0, max: 3 };
    if (c === "+") return this.i++, { kind: "repeat", node, min: 1, max: 4 };
    if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) this.fail();
      this.i += m[0].length;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] ? Number(m[3]) : min + 3;
      if (max > 64) this.fail();
      return { kind: "repeat", node, min, max };
    }
    return node;
  }
}

function emit(nodes: Node[], d: Draw): string {
  let out = "";
  for (const n of nodes) {
    if (n.kind === "chars") out += n.set ? n.set[d.int(0, n.set.length - 1)] : "";
    else if (n.kind === "group") out += emit(d.pick(n.alts), d);
    else for (let k = d.int(n.min, n.max); k > 0; k--) out += emit([n.node], d);
  }
  return out;
}

export function stringForPattern(pattern: string, d: Draw): string | null {
  const re = safeRegExp(pattern);
  if (!re) return null;
  let tree: Node[][];
  try {
    const p = new Parser(pattern);
    tree = p.alts();
    if (p.i !== pattern.length) return null;
  } catch {
    return null;
  }
  for (let attempt = 0; attempt < 8; attempt++) {
    const s = emit(d.pick(tree), d);
    if (re.test(s)) return s;
  }
  return null;
}

// Model-id globs (`gpt-*-mini`) matched without a regular expression: the pieces between the stars are found
// left to right with indexOf, which is the leftmost-match strategy that is exact for `*`-only globs and never
// backtracks, so a hostile model id of any length costs one pass per piece instead of exponential time.

export interface Glob {
  test(text: string): boolean;
}

export function compileGlob(glob: string): Glob {
  const pieces = glob.split("*");
  if (pieces.length === 1) return { test: (text) => text === glob };
  const head = pieces[0];
  const tail = pieces[pieces.length - 1];
  const middle = pieces.slice(1, -1).filter((p) => p !== "");
  const fixed = head.length + tail.length;
  return {
    test(text) {
      if (text.length < fixed || !text.startsWith(head) || !text.endsWith(tail)) return false;
      let at = head.length;
      const end = text.length - tail.length;
      for (const piece of middle) {
        const found = text.indexOf(piece, at);
        if (found < 0 || found + piece.length > end) return false;
        at = found + piece.length;
      }
      return true;
    },
  };
}

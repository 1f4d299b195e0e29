// A network answer's body as JSON, or undefined when it is not JSON: the caller's zod schema then says what was
// expected instead of a parse error escaping.
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

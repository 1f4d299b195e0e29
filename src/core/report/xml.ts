// XML text and attribute escaping. Replies are arbitrary agent output: characters XML 1.0 cannot carry at all
// (NUL, most C0 controls, lone surrogates) are replaced, or a CI dashboard would reject the whole file.

const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlText(s: string): string {
  return s.replace(INVALID_XML, "\ufffd").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, "&quot;").replace(/'/g, "&apos;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
}

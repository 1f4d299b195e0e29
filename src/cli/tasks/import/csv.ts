// RFC 4180 CSV: quoted fields with "" escapes and embedded newlines, CRLF or LF records, a UTF-8 BOM, and
// the separator sniffed from the header (comma, semicolon or tab; spreadsheets in many locales use `;`).
// Strict where a guess would corrupt data (an unterminated quote, text after a closing quote), lenient where
// exports commonly bend the rule (a stray quote inside an unquoted field is kept as text).

export interface CsvTable {
  header: string[];
  rows: string[][];
  /** The 1-based line each row starts on, for messages. */
  lines: number[];
  delimiter: string;
}

export class CsvError extends Error {
  constructor(readonly line: number, readonly column: number, message: string) {
    super(message);
  }
}

/** The separator that occurs most often outside quotes on the first line (comma on a tie). */
export function sniffDelimiter(text: string): string {
  const counts: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && c in counts) counts[c] += 1;
  }
  let best = ",";
  for (const d of [";", "\t"]) if (counts[d] > counts[best]) best = d;
  return best;
}

export function parseCsv(input: string, delimiter?: string): CsvTable {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const sep = delimiter ?? sniffDelimiter(text);
  const records: string[][] = [];
  const lines: number[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const n = text.length;
  let record: string[] = [];
  let recordLine = 1;
  let atRecordStart = true;

  const endRecord = () => {
    // A blank line (one empty field) is not a record.
    if (!(record.length === 1 && record[0] === "")) {
      records.push(record);
      lines.push(recordLine);
    }
    record = [];
    atRecordStart = true;
  };

  while (i <= n) {
    if (atRecordStart) {
      recordLine = line;
      atRecordStart = false;
    }
    if (i === n) {
      if (record.length > 0) endRecord();
      break;
    }
    let field: string;
    if (text[i] === '"') {
      const startLine = line;
      const startCol = i - lineStart + 1;
      let j = i + 1;
      let value = "";
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) throw new CsvError(startLine, startCol, `line ${startLine}: a quoted field opened here is never closed`);
        const chunk = text.slice(j, q);
        for (let k = 0; k < chunk.length; k++) if (chunk[k] === "\n") (line += 1), (lineStart = j + k + 1);
        value += chunk;
        if (text[q + 1] === '"') {
          value += '"';
          j = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      const c = text[i];
      if (i < n && c !== sep && c !== "\n" && c !== "\r") throw new CsvError(line, i - lineStart + 1, `line ${line}: unexpected '${c}' after a closing quote (a quote inside a quoted field is written "")`);
      field = value;
    } else {
      let j = i;
      while (j < n && text[j] !== sep && text[j] !== "\n" && text[j] !== "\r") j++;
      field = text.slice(i, j);
      i = j;
    }
    record.push(field);
    if (i >= n) {
      endRecord();
      break;
    }
    const c = text[i];
    if (c === sep) {
      i += 1;
      if (i === n) record.push("");
      continue;
    }
    // \r\n, \n or a lone \r ends the record.
    i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    line += 1;
    lineStart = i;
    endRecord();
  }

  if (records.length === 0) throw new CsvError(1, 1, "the file has no header row");
  const header = uniqueHeader(records[0]);
  const rows: string[][] = [];
  const rowLines: number[] = [];
  for (let r = 1; r < records.length; r++) {
    const rec = records[r];
    if (rec.length > header.length && rec.slice(header.length).some((v) => v.trim() !== "")) {
      throw new CsvError(lines[r], 1, `line ${lines[r]}: ${rec.length} fields, but the header has ${header.length}`);
    }
    const row = rec.slice(0, header.length);
    while (row.length < header.length) row.push("");
    rows.push(row);
    rowLines.push(lines[r]);
  }
  return { header, rows, lines: rowLines, delimiter: sep };
}

/** Blank header cells are named by position, repeated ones numbered, so every column has one name. */
function uniqueHeader(cells: string[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((raw, i) => {
    const name = raw.trim() || `column ${i + 1}`;
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name} (${count})`;
  });
}

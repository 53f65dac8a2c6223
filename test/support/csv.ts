/**
 * Reads a CSV file as a spreadsheet does (RFC 4180): cells split on `delimiter` outside quotes,
 * quoted cells unquoted and their doubled quotes undone, rows on CRLF or LF. `naive` splits on the
 * delimiter whatever the quotes say, as a paste of the text into a sheet does.
 */
export function readCsv(text: string, { delimiter = ",", naive = false }: { delimiter?: string; naive?: boolean } = {}): string[][] {
  const body = text.replace(/^\uFEFF/, "");
  if (naive)
    return body
      .split(/\r?\n/)
      .filter((line) => line.length > 0)
      .map((line) => line.split(delimiter));
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || (ch === "\r" && body[i + 1] === "\n")) {
      if (ch === "\r") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/** The cells a spreadsheet would run as a formula: text whose first non-blank character is = + - @ (a number is a number). */
export function liveFormulas(rows: string[][]): string[] {
  return rows.flat().filter((cell) => /^\s*[=+\-@]/.test(cell) && !/^\s*-?\d+(\.\d+)?\s*$/.test(cell));
}

/** The rows as objects by the header row's names. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = readCsv(text);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ""])));
}

import { describe, expect, it } from "vitest";
import { csvCell } from "../../app/exports/refunds-csv.server";
import { liveFormulas, readCsv } from "../support/csv";

/** One CSV line as the export writes it. */
const line = (...values: unknown[]) => values.map(csvCell).join(",");

// What staff may type into a note, or a shop may name an order: each a formula somewhere a
// spreadsheet starts a cell.
const ATTACKS = [
  "=SUM(A1:A9)",
  "+1",
  "+33 1 23 45 67 89",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)",
  "-",
  "-1e5",
  "\t=1+1",
  "\r=1+1",
  '=HYPERLINK("https://evil.example","Refund")',
  "ok;=1+1",
  "ok; =1+1",
  "ok\t=2+2",
  "ok|=cmd()",
  "refund;@SUM(1+1)",
  "a;+1;-1e2",
];

describe("a CSV cell a spreadsheet would run as a formula", () => {
  it.each([",", ";", "\t", "|"])("is text, read with %j as the delimiter, quotes honoured or not", (delimiter) => {
    const file = ATTACKS.map((attack) => line("#1001", attack, "12.50")).join("\r\n");
    expect(liveFormulas(readCsv(file, { delimiter }))).toEqual([]);
    expect(liveFormulas(readCsv(file, { delimiter, naive: true }))).toEqual([]);
  });

  it("keeps what was typed, behind one ' where a cell could start", () => {
    expect(readCsv(line("ok;=1+1", "=SUM(A1)", "a|b", "ok\t=2+2"))[0]).toEqual(["ok;'=1+1", "'=SUM(A1)", "a|b", "ok\t'=2+2"]);
  });

  it("is neutralised before it is quoted, and its quotes doubled", () => {
    expect(csvCell('=HYPERLINK("https://evil.example","Refund")')).toBe(`"'=HYPERLINK(""https://evil.example"",""Refund"")"`);
    expect(csvCell("-1,5")).toBe(`"'-1,5"`);
  });

  it("a negative amount stays a number", () => {
    for (const amount of ["-5", "-12.50", "-0.001", -5, -7n]) expect(readCsv(line(amount))[0]).toEqual([String(amount)]);
  });

  it("leaves text without a formula as it is", () => {
    for (const text of ["a=b", "refund @ desk", "12-34", "duplicate side effect; wrong amount", "#1001", "gid://shopify/Order/1001", "a\tb", "  padded  "])
      expect(readCsv(line(text))[0]).toEqual([text]);
  });
});

describe("RFC 4180", () => {
  it("quotes every cell, doubling its quotes", () => {
    expect(csvCell('He said "refund"')).toBe(`"He said ""refund"""`);
    expect(csvCell("#1001")).toBe(`"#1001"`);
    expect(csvCell("")).toBe(`""`);
  });

  it("a comma, a line feed or a carriage return stay inside their cell", () => {
    expect(readCsv(`${line("Smith, Jane", "line one\nline two", "line one\r\nline two")}\r\n`)).toEqual([
      ["Smith, Jane", "line one\nline two", "line one\r\nline two"],
    ]);
  });

  it("null and undefined are empty cells; numbers and bigints their digits", () => {
    expect(readCsv(line(null, undefined, "", 0, 12.5, 1050n, 123456789012345678901234567890n, false))[0]).toEqual([
      "",
      "",
      "",
      "0",
      "12.5",
      "1050",
      "123456789012345678901234567890",
      "false",
    ]);
  });

  it("a row keeps its columns however its cells are written", () => {
    expect(readCsv(line("#1001", "=cmd()", "12.50", "USD", null, 'a "b", c', -3n))[0]).toEqual(["#1001", "'=cmd()", "12.50", "USD", "", 'a "b", c', "-3"]);
  });
});

import { describe, expect, it } from "vitest";
import { csvCell } from "../../app/dashboard/export.server";

/** One CSV line as the export writes it. */
const line = (...values: unknown[]) => values.map(csvCell).join(",");

describe("a CSV cell a spreadsheet would run as a formula", () => {
  it.each([
    ["=SUM(A1:A9)", "'=SUM(A1:A9)"],
    ["+1", "'+1"],
    ["+33 1 23 45 67 89", "'+33 1 23 45 67 89"],
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ["@SUM(1+1)", "'@SUM(1+1)"],
    ["-", "'-"],
    ["-1e5", "'-1e5"],
    ["-.5", "'-.5"],
    ["\t=1+1", "'\t=1+1"],
  ])("%j is written as %j", (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it("a cell starting with a carriage return is neutralised and, holding a line break, quoted", () => {
    expect(csvCell("\r=1+1")).toBe('"\'\r=1+1"');
  });

  it("is neutralised before it is quoted, and its quotes doubled", () => {
    expect(csvCell('=HYPERLINK("https://evil.example","Refund")')).toBe(`"'=HYPERLINK(""https://evil.example"",""Refund"")"`);
    expect(csvCell("-1,5")).toBe(`"'-1,5"`);
  });

  it("a negative amount stays a number", () => {
    expect(csvCell("-5")).toBe("-5");
    expect(csvCell("-12.50")).toBe("-12.50");
    expect(csvCell("-0.001")).toBe("-0.001");
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(-7n)).toBe("-7");
  });

  it("only the first character counts", () => {
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell("refund @ desk")).toBe("refund @ desk");
    expect(csvCell("12-34")).toBe("12-34");
    expect(csvCell("duplicate side effect; wrong amount")).toBe("duplicate side effect; wrong amount");
  });
});

describe("RFC 4180 quoting", () => {
  it("doubles quotes and quotes the cell", () => {
    expect(csvCell('He said "refund"')).toBe(`"He said ""refund"""`);
    expect(csvCell('"')).toBe(`""""`);
  });

  it("quotes a comma, a line feed, a carriage return", () => {
    expect(csvCell("Smith, Jane")).toBe(`"Smith, Jane"`);
    expect(csvCell("line one\nline two")).toBe(`"line one\nline two"`);
    expect(csvCell("line one\r\nline two")).toBe(`"line one\r\nline two"`);
  });

  it("leaves plain text, a tab inside and spaces as they are", () => {
    expect(csvCell("#1001")).toBe("#1001");
    expect(csvCell("gid://shopify/Order/1001")).toBe("gid://shopify/Order/1001");
    expect(csvCell("a\tb")).toBe("a\tb");
    expect(csvCell("  padded  ")).toBe("  padded  ");
  });
});

describe("values that are not text", () => {
  it("null and undefined are empty cells, and so is an empty string", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("")).toBe("");
  });

  it("numbers and bigints are written as their digits", () => {
    expect(csvCell(0)).toBe("0");
    expect(csvCell(12.5)).toBe("12.5");
    expect(csvCell(1050n)).toBe("1050");
    expect(csvCell(123456789012345678901234567890n)).toBe("123456789012345678901234567890");
    expect(csvCell(false)).toBe("false");
  });

  it("a row keeps its columns however its cells are written", () => {
    expect(line("#1001", "=cmd()", "12.50", "USD", null, 'a "b", c', -3n)).toBe(`#1001,'=cmd(),12.50,USD,,"a ""b"", c",-3`);
  });
});

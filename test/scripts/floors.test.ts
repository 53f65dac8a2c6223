import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

// `npm test`'s floors step (scripts/floors.mjs, decision 036), run as npm test runs it, on a small
// tree of its own: three floors, a few files, and the import planted that a change might add.

const FLOORS = `# The house

## The floors
| floor | name | holds | what it knows |
|---|---|---|---|
| 1 | lib | \`lib/\` | infrastructure |
| 2 | capabilities | \`refunds/\`, \`alerts/\` | what people do |
| 3 | top | \`routes/\`, \`worker.server.ts\` | routes |

## Words
| not | a | floor | row |
`;

/** A project of `files` (path from app/ → source) beside the floors table; the check's answer. */
function floorsOf(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "rv-floors-"));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "docs/architecture.md"), FLOORS);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, "app", path)), { recursive: true });
    writeFileSync(join(root, "app", path), source);
  }
  const result = spawnSync("node", ["scripts/floors.mjs", "--root", root], { encoding: "utf8" });
  return { code: result.status, out: result.stdout + result.stderr };
}

const HOUSE = {
  "lib/money.ts": "export const cents = 100;\n",
  "refunds/issue.ts": 'import { cents } from "../lib/money";\nexport const issue = () => cents;\n',
  "alerts/send.ts": 'import type { issue } from "../refunds/issue";\nexport type Sent = typeof issue;\n',
  "routes/app.tsx": 'import { issue } from "../refunds/issue";\nexport default issue;\n',
  "worker.server.ts": 'import { cents } from "./lib/money";\nexport const run = cents;\n',
};

describe("the floors check", () => {
  it("passes a house whose every import goes down a floor or stays on its own", () => {
    const { code, out } = floorsOf(HOUSE);
    expect(out).toContain("0 breach(es) of the floors among 5 files in 5 folders and files of app/ on 3 floors");
    expect(code).toBe(0);
  });

  it("fails on an import up a floor, naming the file, the line and both floors, a type import too", () => {
    const { code, out } = floorsOf({
      ...HOUSE,
      "lib/money.ts": 'export const cents = 100;\nimport type { run } from "../worker.server";\nexport type R = typeof run;\n',
    });
    expect(code).toBe(1);
    expect(out).toContain("app/lib/money.ts:2 imports app/worker.server.ts: floor 1 (lib) may not import floor 3 (top)");
  });

  it("fails on two folders of one floor importing each other, with one way round the circle", () => {
    const { code, out } = floorsOf({
      ...HOUSE,
      "refunds/issue.ts": 'import { cents } from "../lib/money";\nimport "../alerts/send";\nexport const issue = () => cents;\n',
    });
    expect(code).toBe(1);
    expect(out).toContain("folders in a circle (2): alerts, refunds; one way round it:");
    expect(out).toContain("app/alerts/send.ts:1 -> app/refunds/issue.ts");
    expect(out).toContain("app/refunds/issue.ts:2 -> app/alerts/send.ts");
  });

  it("fails on two files importing each other within one folder", () => {
    const { code, out } = floorsOf({ ...HOUSE, "refunds/plan.ts": 'import "./issue";\n', "refunds/issue.ts": 'import "./plan";\nexport const issue = 1;\n' });
    expect(code).toBe(1);
    expect(out).toContain("files in a circle: app/refunds/issue.ts <-> app/refunds/plan.ts");
  });

  it("fails on a folder the table does not place, and on a floor's folder the code does not have", () => {
    const { code, out } = floorsOf({ ...HOUSE, "screens/page.ts": "export const page = 1;\n", "alerts/send.ts": "export const sent = 1;\n" });
    expect(code).toBe(1);
    expect(out).toContain('app/screens stands on no floor: add it to a row of "The floors" in docs/architecture.md');
    const { out: missing } = floorsOf({
      "lib/money.ts": "export const cents = 100;\n",
      "refunds/issue.ts": "export const x = 1;\n",
      "routes/app.tsx": "export default 1;\n",
      "worker.server.ts": "export const w = 1;\n",
    });
    expect(missing).toContain('"The floors" in docs/architecture.md names alerts, which app/ does not have');
  });
});

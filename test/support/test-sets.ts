/**
 * The suite's files by what they need (decision 026), told apart by name:
 * - `*.e2e.test.ts`: a database (the app, a worker process, a harness): run on SQLite, and again on PostgreSQL;
 * - `*.browser.test.ts`: the demo, on a database, driven in Chromium: likewise;
 * - `*.heavy.test.ts`: scale and chaos (thousands of refunds, several worker processes): `npm run test:heavy`, once;
 * - any other `*.test.ts`: no database: run once, with the SQLite pass.
 * A file that creates a database under another name is stopped (test/support/database.ts), so the
 * PostgreSQL pass never misses one.
 */
export const STORAGE_FILE = /\.(e2e|browser|heavy)\.test\.ts$/;

const HEAVY = "test/**/*.heavy.test.ts";

export const TEST_SETS = {
  /** `npm test` on SQLite: every file but the heavy ones. */
  all: { include: ["test/**/*.test.ts"], exclude: [HEAVY] },
  /** `npm test` on PostgreSQL: the files that touch storage. */
  storage: { include: ["test/**/*.e2e.test.ts", "test/**/*.browser.test.ts"] },
  /** `npm run test:heavy`. */
  heavy: { include: [HEAVY] },
};

export type TestSet = keyof typeof TEST_SETS;

export function testSet(env: Record<string, string | undefined>): TestSet {
  const set = env.RV_TEST_SET || "all";
  if (!(set in TEST_SETS)) throw new Error(`RV_TEST_SET must be one of ${Object.keys(TEST_SETS).join(", ")}, not "${set}"`);
  return set as TestSet;
}

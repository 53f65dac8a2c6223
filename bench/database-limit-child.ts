// Part 7's database baseline, in its own process so that it loads the Prisma client generated for
// PostgreSQL (the bench's own process loaded SQLite's first). The rows the workers' verdicts wrote
// are taken out and written again as fast as the database takes them: batches of the size a worker
// writes, one transaction each, one statement a table, no evaluation, no read. Prints one JSON line.
import { createPrismaClient } from "../app/lib/db/client";
import { columnsOf, insertRows, updateRows } from "../app/lib/db/bulk";
import { EVALUATION_COLUMNS, OBSERVATION_COLUMNS } from "../app/verification/verdicts.server";
import { Prisma } from "@prisma/client";

const [url, batchArg] = process.argv.slice(2);
const batch = Number(batchArg);
const db = createPrismaClient(url);
const operations = await db.operation.findMany({ orderBy: { id: "asc" }, select: { id: true, status: true, reason: true } });
const observations = Map.groupBy(await db.observation.findMany(), (row) => row.operationId);
const evaluations = Map.groupBy(await db.evaluation.findMany(), (row) => row.operationId);
await db.evaluation.deleteMany();
await db.observation.deleteMany();
await db.operation.updateMany({ data: { status: "PENDING", reason: null, decidedAt: null } });

type Verdict = { id: string; status: string; reason: string | null; decidedAt: Date };
const VERDICT = columnsOf<Verdict>({ id: "text", status: "text", reason: "text", decidedAt: "instant" });

const started = performance.now();
for (let i = 0; i < operations.length; i += batch) {
  const slice = operations.slice(i, i + batch);
  const decidedAt = new Date();
  await db.$transaction(async (tx) => {
    await updateRows(
      tx,
      {
        table: "Operation",
        columns: VERDICT,
        guard: Prisma.sql`true`,
        set: { status: Prisma.sql`v."status"`, reason: Prisma.sql`v."reason"`, decidedAt: Prisma.sql`v."decidedAt"` },
      },
      slice.map((op) => ({ ...op, decidedAt })),
    );
    await insertRows(
      tx,
      "Observation",
      OBSERVATION_COLUMNS,
      slice.flatMap((op) => observations.get(op.id) ?? []),
    );
    await insertRows(
      tx,
      "Evaluation",
      EVALUATION_COLUMNS,
      slice.flatMap((op) => evaluations.get(op.id) ?? []),
    );
  });
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ verdicts: operations.length, seconds })}\n`);
await db.$disconnect();

// Bench part 12: what the refund limits (issue 44, decision 030) cost a refund asked for in the app.
// The built app in a process of its own (`npm start`, worker off), Shopify faked in the bench's
// process, refunds posted to the refund form as App Bridge posts them, one after another and
// several at once, in a shop with a day of refunds behind it; the limits written straight into
// RefundLimits between rounds (the app reads them on every refund).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import Database from "better-sqlite3";
import pg from "pg";
import { createPrismaClient, sqliteInstant } from "../app/lib/db/client";
import type { DatabaseKind } from "../app/lib/db/url";
import { REFUND_CREATED } from "../app/contracts/registry.server";
import { peopleJson, recentRefunds } from "../app/guardrails/limits.server";
import { withLock } from "../app/lib/db/locks";
import { REFUND_LOCK_TIMES, shopLimitsLock } from "../app/refunds/locks.server";
import { ADMIN_API_VERSION } from "../app/shopify/api-version";
import { FakeShopify } from "../fake-shopify/server";
import { startAppProcess } from "../scripts/demo-server";
import { TEST_APP } from "../test/support/credentials";
import { dataPath, embeddedFetch } from "../test/support/embedded";
import { installShop } from "../test/support/sessions";
import { migrate, postgresDatabase, quantile, root, round, row, scratchSqlite, type BenchRow } from "./support";

const SHOP = "bench-limits.myshopify.com";
const DAY = 24 * 3_600_000;
/** Refunds in the 24 hours before the part starts, and as many a day for the days before them. */
const DAY_OF_REFUNDS = 2_000;
const OLDER_DAYS = 6;
/** Days of the app's older records added after the rounds, to see whether the count's records read grows with the shop's history. */
const LONGER_HISTORY_DAYS = 28;
/** Who refunds one after another: the account owner (42, the fake's) and five staff members. */
const STAFF = ["42", "101", "102", "103", "104", "105"];
/**
 * Refunds one after another: short rounds of each setting, interleaved, so that the load of a shared
 * machine (a spike of seconds) falls on every setting alike.
 */
const ROUNDS = 24;
const PER_ROUND = 3;
/** Refunds several at once: so many other staff, each asking for refunds one after another on orders of their own. */
const AT_ONCE = 8;
const EACH_AT_ONCE = 4;
/** The settings of the runs at once, alternated. */
const AT_ONCE_RUNS = ["none", "all", "all", "none", "none", "all"] as const;
const CROWD = Array.from({ length: AT_ONCE }, (_, i) => String(201 + i));
const AMOUNT = "25.00";

type Setting = "none" | "perRefund" | "all";
const SETTINGS: Setting[] = ["none", "perRefund", "all"];

/** The shop's limits for each setting: none (no row), $500 a refund, or every limit on and none reached. */
async function setLimits(db: PrismaClient, setting: Setting, revision: number): Promise<void> {
  if (setting === "none") {
    await db.refundLimits.deleteMany({ where: { shop: SHOP } });
    return;
  }
  const off = { dailyPerStaffMinor: null, shopHourlyCount: null, shopHourlyMinor: null, shopDailyCount: null, shopDailyMinor: null, people: "[]" };
  const every = {
    dailyPerStaffMinor: 10_000_000n,
    shopHourlyCount: 10_000,
    shopHourlyMinor: 100_000_000n,
    shopDailyCount: 100_000,
    shopDailyMinor: 1_000_000_000n,
    // One person with limits of their own, two approvers: the people's JSON is read as a shop that uses it has it.
    people: peopleJson([
      { userId: "101", perRefundMinor: 100_000n, dailyMinor: 20_000_000n, approver: true, setsLimits: false },
      { userId: "102", perRefundMinor: null, dailyMinor: null, approver: true, setsLimits: true },
    ]),
  };
  const data = { currency: "USD", perRefundMinor: 50_000n, ...(setting === "all" ? every : off), revision, updatedBy: "42", updatedAt: new Date() };
  await db.refundLimits.upsert({ where: { shop: SHOP }, create: { shop: SHOP, ...data }, update: data });
}

type Row = Record<string, string | bigint | number | boolean | Date | null>;

/** Writes rows through the database's own driver, in one statement or transaction a table, as part 5 does (Prisma's createMany takes seconds here). */
async function rowWriter(url: string, kind: DatabaseKind) {
  if (kind === "postgresql") {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      async write(table: string, rows: Row[]) {
        const columns = Object.keys(rows[0])
          .map((c) => `"${c}"`)
          .join(", ");
        const json = JSON.stringify(rows, (_key, value) => (typeof value === "bigint" ? Number(value) : value));
        await client.query(`INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::"${table}", $1::json)`, [json]);
      },
      close: () => client.end(),
    };
  }
  const sqlite = new Database(url.slice("file:".length));
  const value = (v: Row[string]) => (v instanceof Date ? sqliteInstant(v) : typeof v === "boolean" ? Number(v) : v);
  return {
    async write(table: string, rows: Row[]) {
      const columns = Object.keys(rows[0]);
      const insert = sqlite.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
      sqlite.transaction(() => rows.forEach((r) => insert.run(...columns.map((c) => value(r[c])))))();
    },
    async close() {
      sqlite.close();
    },
  };
}

const minorText = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`;

/**
 * A shop's past refunds, written straight into the database: DAY_OF_REFUNDS a day before `now`,
 * the `days` days after the first `fromDay` (0: the last 24 hours). Of every five, three were asked
 * for in the app by the staff in turn (a RefundRecord sent, its Operation, the refunds/create
 * delivery Shopify sent for it), one made by a staff member in Shopify admin (an Operation from the
 * webhook, whose delivery names them) and one by no person (POS, another app: the delivery names
 * nobody). `recordsOnly`: the app's records alone.
 */
async function seedHistory(url: string, kind: DatabaseKind, now: number, fromDay: number, days: number, recordsOnly = false): Promise<void> {
  const step = DAY / DAY_OF_REFUNDS;
  const [records, operations, deliveries]: Row[][] = [[], [], []];
  for (let i = fromDay * DAY_OF_REFUNDS; i < (fromDay + days) * DAY_OF_REFUNDS; i++) {
    // The newest first: i = 0 is half a step before now.
    const at = new Date(now - (i + 0.5) * step);
    const minor = BigInt(500 + ((i * 7919) % 15_000));
    const amount = minorText(minor);
    const refundGid = `gid://shopify/Refund/${7_000_000_000 + i}`;
    const orderGid = `gid://shopify/Order/${6_000_000_000 + i}`;
    const source = i % 5;
    const staff = STAFF[i % STAFF.length];
    if (source < 3) {
      // The newest the highest, as the app numbers them.
      const sysNumber = 1_000_000 - i;
      records.push({
        id: randomUUID(),
        shop: SHOP,
        sysId: `RF-${String(sysNumber).padStart(6, "0")}`,
        sysNumber,
        caption: `Refund of ${amount} USD on #${1000 + i}`,
        status: "succeeded",
        orderId: orderGid,
        attemptNumber: 1,
        amountMinor: minor,
        currency: "USD",
        shopAmountMinor: minor,
        shopCurrency: "USD",
        revision: randomUUID(),
        refundRef: refundGid,
        refCaptions: JSON.stringify([{ id: orderGid, caption: `#${1000 + i}` }]),
        calls: 1,
        shopifyOutcome: "created",
        intentKey: randomUUID(),
        askedBy: staff,
        limitAmountMinor: minor,
        sentAt: at,
        createdAt: new Date(at.getTime() - 50),
        updatedAt: at,
      });
    }
    operations.push({
      id: randomUUID(),
      shop: SHOP,
      refundGid,
      orderGid,
      orderName: `#${1000 + i}`,
      origin: source < 3 ? "app" : "webhook",
      contractId: REFUND_CREATED.contract.id,
      contractVersion: REFUND_CREATED.contract.version,
      contractHash: REFUND_CREATED.computedHash,
      contractDeclaredHash: REFUND_CREATED.declaredHash,
      amount,
      currency: "USD",
      amountMinor: minor,
      shopAmount: amount,
      shopCurrency: "USD",
      startedAt: at,
      status: "VERIFIED",
      reason: "all_conditions_hold",
      reasons: JSON.stringify(["all_conditions_hold"]),
      attempts: 1,
      decidedAt: new Date(at.getTime() + 21_000),
      createdAt: at,
      updatedAt: at,
    });
    deliveries.push({
      id: randomUUID(),
      shop: SHOP,
      webhookId: randomUUID(),
      eventId: randomUUID(),
      topic: "REFUNDS_CREATE",
      triggeredAt: at,
      apiVersion: ADMIN_API_VERSION,
      refundGid,
      orderGid,
      refundCreatedAt: at,
      receivedAt: new Date(at.getTime() + 300),
      amount,
      currency: "USD",
      staffUserId: source === 3 ? staff : null,
      openedAt: new Date(at.getTime() + 1_000),
    });
  }
  const writer = await rowWriter(url, kind);
  try {
    await writer.write("RefundRecord", records);
    if (recordsOnly) return;
    await writer.write("Operation", operations);
    await writer.write("WebhookDelivery", deliveries);
  } finally {
    await writer.close();
  }
}

interface Timed {
  /** Refunds Shopify made (the form answered 200). */
  done: number;
  /** CPU time the app's process (and, on PostgreSQL, the database's backends) spent meanwhile, ms; and the app's process alone. */
  cpuMs: number;
  appCpuMs: number;
  /** Answers other than 200, by status. */
  refused: Record<string, number>;
  ms: number;
  /** Each refund's time, from the post to the answer. */
  each: number[];
}

/** One statement of the counting, as the bench's own Prisma client sent it, and its plan. */
interface Statement {
  table: string;
  ms: number;
  rows: number;
  plan: string;
}

interface Measured {
  database: "SQLite" | "PostgreSQL";
  /** One after another, by setting. */
  sequential: Record<Setting, Timed>;
  /** AT_ONCE staff at once, without limits and with every limit on. */
  atOnce: Record<"none" | "all", Timed>;
  /** Records the counting reads (sent from the app in the last 24 hours), at the start and the end. */
  dayAtStart: number;
  dayAtEnd: number;
  seedSeconds: number;
  /** The machine's 1-minute load average when the rounds ended. */
  load: number;
  /** In the bench's process, after the rounds: the limits row's read, the whole count, its statements, the shop's turn taken and let go (ms, medians). */
  alone: {
    limitsRow: number;
    counting: number;
    statements: Statement[];
    turn: number;
    /** The same count with LONGER_HISTORY_DAYS more days of the app's older records: the whole, and its records read. */
    longer: { counting: number; records: number; shopRecords: number };
  };
}

const median = (values: number[]) => quantile(values, 0.5);

/** Clock ticks a second, as /proc/<pid>/stat counts CPU time. */
const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());

/** The CPU time (user and system) a process has used, ms; 0 for one that is gone. */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * The CPU time the app has used so far, ms: its process and, on PostgreSQL, the backends serving
 * the bench's database. What a refund costs in CPU is not slowed by the other work of a shared
 * machine, as its wall-clock time is.
 */
async function cpuOfApp(db: PrismaClient, kind: DatabaseKind, appPid: number): Promise<Map<number, number>> {
  const pids = [appPid];
  if (kind === "postgresql") {
    const backends = await db.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    pids.push(...backends.map((b) => Number(b.pid)));
  }
  return new Map(pids.map((pid) => [pid, cpuMsOf(pid)]));
}

/** CPU ms used between two readings (a backend that came meanwhile counts from its start). */
const cpuSince = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

async function medianMs(fn: () => Promise<unknown>, runs = 20): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/** A Prisma client on `url` that reports each statement it sends (the same Prisma and adapter as the app's). */
async function loggingClient(url: string, kind: DatabaseKind) {
  const log = [{ emit: "event" as const, level: "query" as const }];
  const client: PrismaClient =
    kind === "postgresql"
      ? // The client generated for PostgreSQL apart (bench/support.ts postgresDatabase): node_modules' is SQLite's in this process.
        new (await import(`${root}bench/.generated/pg/client/index.js`)).PrismaClient({ adapter: new PrismaPg({ connectionString: url }), log })
      : new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }), log });
  const sent: { query: string; params: unknown[]; ms: number }[] = [];
  (client as unknown as { $on(event: "query", listener: (e: { query: string; params: string; duration: number }) => void): void }).$on("query", (e) =>
    sent.push({ query: e.query, params: JSON.parse(e.params) as unknown[], ms: e.duration }),
  );
  return { client, sent };
}

/** The plan of one statement the counting sent, in a line: SQLite's EXPLAIN QUERY PLAN; PostgreSQL's EXPLAIN ANALYZE (its nodes, indexes, rows and time). */
async function planOf(url: string, kind: DatabaseKind, query: string, params: unknown[]): Promise<{ plan: string; rows: number }> {
  if (kind === "sqlite") {
    const sqlite = new Database(url.slice("file:".length), { readonly: true });
    try {
      // The instants as the SQLite adapter binds them (the text Prisma stores), for the row count.
      const bound = params.map((p) => (typeof p === "string" && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(p) ? sqliteInstant(new Date(p)) : p));
      const plan = (sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...bound) as { detail: string }[]).map((r) => r.detail).join("; ");
      return { plan, rows: sqlite.prepare(query).all(...bound).length };
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    type Node = { "Node Type": string; "Index Name"?: string; "Actual Rows": number; Plans?: Node[] };
    // Three times: the median execution time (one run on a busy machine can take ten times another).
    const runs: { Plan: Node; "Execution Time": number }[] = [];
    for (let i = 0; i < 3; i++) {
      const [{ "QUERY PLAN": explained }] = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, params)).rows as { "QUERY PLAN": unknown }[];
      runs.push((explained as (typeof runs)[number][])[0]);
    }
    const { Plan: top } = runs[0];
    const ms = median(runs.map((r) => r["Execution Time"]));
    const nodes = (node: Node): string[] => [
      `${node["Node Type"]}${node["Index Name"] ? ` on ${node["Index Name"]}` : ""}`,
      ...(node.Plans ?? []).flatMap(nodes),
    ];
    return { plan: `${nodes(top).join(" < ")}, executed in ${round(ms, 2)} ms (median of 3)`, rows: top["Actual Rows"] };
  } finally {
    await client.end();
  }
}

/** The counting alone, in the bench's process, on the database the app just used: where a refund's time with every limit on goes. */
async function countingAlone(db: PrismaClient, url: string, kind: DatabaseKind, seededAt: number): Promise<Measured["alone"]> {
  const { client, sent } = await loggingClient(url, kind);
  try {
    const limitsRow = await medianMs(() => client.refundLimits.findUnique({ where: { shop: SHOP } }));
    const counting = await medianMs(() => recentRefunds(client, SHOP, "101", "USD", new Date()));
    // Each call's statements by table, and by their order among the table's (the first two reads
    // run side by side: which answers first, and is reported first, varies from call to call).
    const tableOf = (query: string) => /FROM\s+(?:["`]\w+["`]\.)?["`](\w+)["`]/.exec(query)?.[1] ?? "?";
    const keyed = (call: typeof sent) => {
      const seen = new Map<string, number>();
      return call.map((s) => {
        const table = tableOf(s.query);
        seen.set(table, (seen.get(table) ?? 0) + 1);
        return { key: `${table} ${seen.get(table)}`, table, ...s };
      });
    };
    const statementsOfCalls = async () => {
      const durations = new Map<string, number[]>();
      let last: ReturnType<typeof keyed> = [];
      for (let i = 0; i < 20; i++) {
        sent.length = 0;
        await recentRefunds(client, SHOP, "101", "USD", new Date());
        last = keyed(sent);
        for (const s of last) durations.set(s.key, [...(durations.get(s.key) ?? []), s.ms]);
      }
      return { durations, last };
    };
    const { durations, last } = await statementsOfCalls();
    const statements: Statement[] = [];
    for (const s of last) {
      const { plan, rows } = await planOf(url, kind, s.query, s.params);
      statements.push({ table: s.table, ms: median(durations.get(s.key)!), rows, plan });
    }
    const turn = await medianMs(() => withLock(db, shopLimitsLock(SHOP), async () => undefined, REFUND_LOCK_TIMES));
    // The same shop with a longer past: older records, none in the last 24 hours.
    await seedHistory(url, kind, seededAt, OLDER_DAYS + 1, LONGER_HISTORY_DAYS, true);
    if (kind === "postgresql") await db.$executeRawUnsafe(`VACUUM ANALYZE "RefundRecord"`);
    const longerCounting = await medianMs(() => recentRefunds(client, SHOP, "101", "USD", new Date()));
    const longer = {
      counting: longerCounting,
      records: median((await statementsOfCalls()).durations.get("RefundRecord 1")!),
      shopRecords: await db.refundRecord.count({ where: { shop: SHOP } }),
    };
    return { limitsRow, counting, statements, turn, longer };
  } finally {
    await client.$disconnect();
  }
}

/** The part on one database: the app on `url`, the bench's own writes through `db`. */
async function measure(database: Measured["database"], url: string, kind: DatabaseKind, db: PrismaClient): Promise<Measured> {
  const shopify = new FakeShopify(TEST_APP, { maximumAvailable: 1e9, restoreRate: 1e9 });
  const shop = shopify.addShop(SHOP);
  const origin = await shopify.listen();
  await installShop(db, shopify, SHOP);
  const seedStarted = performance.now();
  const seededAt = Date.now();
  await seedHistory(url, kind, seededAt, 0, OLDER_DAYS + 1);
  // On PostgreSQL as autovacuum leaves tables after a load (part 5 measures the same way); SQLite
  // as the app leaves it: nothing runs ANALYZE there.
  if (kind === "postgresql") await db.$executeRawUnsafe(`VACUUM ANALYZE "RefundRecord", "Operation", "WebhookDelivery"`);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const app = await startAppProcess({
    port: "free",
    databaseUrl: url,
    shopifyOrigin: origin,
    log: "ignore",
    env: { VERIFIER_WORKER: "off", LOG_LEVEL: "warn" },
  });
  const appUrl = app.url.replace("localhost", "127.0.0.1");
  const as = new Map([...STAFF, ...CROWD].map((id) => [id, embeddedFetch(appUrl, SHOP, id)]));
  const inDay = () => db.refundRecord.count({ where: { shop: SHOP, sentAt: { gte: new Date(Date.now() - DAY) } } });
  let revision = 0;
  try {
    // Each person opens the app once (their online session), as staff do before they refund.
    for (const fetchAs of as.values()) {
      const opened = await fetchAs(dataPath("/app/settings/limits", "routes/app.settings.limits"));
      if (opened.status !== 200) throw new Error(`limits bench: opening the app answered ${opened.status}`);
    }
    const refund = async (userId: string): Promise<{ status: number; ms: number }> => {
      const order = shop.createOrder({ amount: "100.00" });
      const started = performance.now();
      const answer = await as.get(userId)!(dataPath(`/app/orders/${order.id}/refund`, "routes/app.orders.$orderId.refund"), {
        method: "POST",
        body: new URLSearchParams({ intent: "issue", amount: AMOUNT, formToken: randomUUID() }),
      });
      const body = (await answer.json()) as { ok: boolean };
      const ms = performance.now() - started;
      if (answer.status === 200 && (!body.ok || order.refundIds.length !== 1))
        throw new Error(`limits bench: a 200 without a refund (${JSON.stringify(body)})`);
      return { status: answer.status, ms };
    };
    const empty = (): Timed => ({ done: 0, cpuMs: 0, appCpuMs: 0, refused: {}, ms: 0, each: [] });
    const add = (into: Timed, answers: { status: number; ms: number }[], ms: number, cpu: { before: Map<number, number>; after: Map<number, number> }) => {
      into.ms += ms;
      into.cpuMs += cpuSince(cpu.before, cpu.after);
      into.appCpuMs += cpu.after.get(app.pid)! - cpu.before.get(app.pid)!;
      for (const a of answers) {
        if (a.status !== 200) {
          into.refused[a.status] = (into.refused[a.status] ?? 0) + 1;
          continue;
        }
        into.done++;
        into.each.push(a.ms);
      }
    };
    /** `people` at once, each asking for `each` refunds one after another. */
    const together = async (people: string[], each: number) => {
      const started = performance.now();
      const answers = await Promise.all(
        people.map(async (userId) => {
          const mine: { status: number; ms: number }[] = [];
          for (let i = 0; i < each; i++) mine.push(await refund(userId));
          return mine;
        }),
      );
      return { answers: answers.flat(), ms: performance.now() - started };
    };

    // Warm the process (JIT, connections, each setting's code path) before anything is measured.
    for (const setting of SETTINGS) {
      await setLimits(db, setting, ++revision);
      await together(STAFF, 1);
    }
    const dayAtStart = await inDay();
    const sequential = { none: empty(), perRefund: empty(), all: empty() };
    for (let r = 0; r < ROUNDS; r++) {
      // Each round in another order: no setting always runs first, or after the same one.
      for (const setting of SETTINGS.map((_, i) => SETTINGS[(i + r) % SETTINGS.length])) {
        await setLimits(db, setting, ++revision);
        const before = await cpuOfApp(db, kind, app.pid);
        const started = performance.now();
        const answers: { status: number; ms: number }[] = [];
        for (let i = 0; i < PER_ROUND; i++) answers.push(await refund(STAFF[(r * PER_ROUND + i) % STAFF.length]));
        const ms = performance.now() - started;
        add(sequential[setting], answers, ms, { before, after: await cpuOfApp(db, kind, app.pid) });
      }
    }
    const atOnce = { none: empty(), all: empty() };
    for (const setting of AT_ONCE_RUNS) {
      await setLimits(db, setting, ++revision);
      const before = await cpuOfApp(db, kind, app.pid);
      const { answers, ms } = await together(CROWD, EACH_AT_ONCE);
      add(atOnce[setting], answers, ms, { before, after: await cpuOfApp(db, kind, app.pid) });
    }
    const [dayAtEnd, load] = [await inDay(), loadavg()[0]];
    return { database, sequential, atOnce, dayAtStart, dayAtEnd, seedSeconds, load, alone: await countingAlone(db, url, kind, seededAt) };
  } finally {
    await app.stop();
    await shopify.close();
  }
}

const perSecond = (t: Timed) => t.done / (t.ms / 1000);
const cpuPerRefund = (t: Timed) => t.cpuMs / t.done;
const ms = (n: number) => `${round(n, 1)} ms`;

function rows(m: Measured): BenchRow[] {
  const part = `12. refund limits (${m.database})`;
  const baselineName = "the same refunds, no limits set";
  const refused = (t: Timed) =>
    Object.entries(t.refused)
      .map(([status, n]) => `${n} answered ${status}`)
      .join(", ") || "none refused";
  const { none, perRefund, all } = m.sequential;
  const cpuWords = (t: Timed) =>
    m.database === "PostgreSQL" ? `CPU ${ms(cpuPerRefund(t))} a refund (the app's process ${ms(t.appCpuMs / t.done)})` : `CPU ${ms(cpuPerRefund(t))} a refund`;
  const latencies = (t: Timed) => `median ${ms(median(t.each))}, p90 ${ms(quantile(t.each, 0.9))}, ${cpuWords(t)}`;
  const cpuOf = m.database === "PostgreSQL" ? "the app's process and PostgreSQL's backends" : "the app's process";
  const note =
    `the built app (1 process, worker off) on ${m.database}, Shopify faked in the bench's process; refunds of $${AMOUNT} posted to the refund form, each on a new order; ` +
    `the shop's history written straight into the database (${round(m.seedSeconds, 1)} s): ${DAY_OF_REFUNDS.toLocaleString("en-US")} refunds a day for ${OLDER_DAYS + 1} days, ` +
    `3 in 5 asked for in the app by ${STAFF.length} staff, 1 in 5 made in Shopify admin by one of them, 1 in 5 by no person; ` +
    `records sent from the app in the last 24 hours: ${m.dayAtStart.toLocaleString("en-US")} when measuring began, ${m.dayAtEnd.toLocaleString("en-US")} at the end. ` +
    `One after another (${STAFF.length} staff in turn, ${ROUNDS} rounds of ${PER_ROUND} per setting, interleaved): no limits ${latencies(none)}; ` +
    `a per-refund limit ${latencies(perRefund)}; every limit on ${latencies(all)} (${refused(none)}; ${refused(perRefund)}; ${refused(all)}). ` +
    `${AT_ONCE} other staff at once, ${EACH_AT_ONCE} refunds each, ${AT_ONCE_RUNS.length / 2} runs per setting, alternated: no limits ${round(perSecond(m.atOnce.none), 1)}/s, ${latencies(m.atOnce.none)} (${refused(m.atOnce.none)}); ` +
    `every limit on ${round(perSecond(m.atOnce.all), 1)}/s, ${latencies(m.atOnce.all)} (${refused(m.atOnce.all)}). ` +
    `The machine's 1-minute load average when the rounds ended: ${round(m.load, 1)} on ${cpus().length} cores`;
  const { alone } = m;
  // recentRefunds sends its first two reads side by side (Promise.all), then the deliveries' in turn.
  const [first, second, ...then] = alone.statements.map((s) => s.ms);
  const inStatements = Math.max(first ?? 0, second ?? 0) + then.reduce((sum, t) => sum + t, 0);
  const aloneNote =
    `in the bench's process on the same database after the rounds, medians of 20: recentRefunds ${ms(alone.counting)} in ${alone.statements.length} statements ` +
    `(${alone.statements.map((s) => `${s.table}, ${s.rows.toLocaleString("en-US")} rows, ${ms(s.ms)}: ${s.plan}`).join("; ")}); ` +
    `${ms(alone.counting - inStatements)} of it outside the statements' answers as Prisma times them, the first two side by side (Prisma making objects of the rows, the sums); ` +
    `the limits row's read ${ms(alone.limitsRow)}; the shop's turn taken and let go ${ms(alone.turn)}. ` +
    `With ${LONGER_HISTORY_DAYS} more days of the app's older records (${alone.longer.shopRecords.toLocaleString("en-US")} records in all, none of the added ones in the last 24 hours): ` +
    `recentRefunds ${ms(alone.longer.counting)}, its RefundRecord read ${ms(alone.longer.records)} ` +
    `(before: ${ms(alone.counting)} and ${ms(alone.statements.find((st) => st.table === "RefundRecord")!.ms)})`;
  return [
    row(part, "refunds/s, one after another, a per-refund limit only", perSecond(perRefund), perSecond(none), "refunds/s", baselineName, note),
    row(part, "refunds/s, one after another, every limit on (none reached)", perSecond(all), perSecond(none), "refunds/s", baselineName),
    row(part, `CPU ms a refund (${cpuOf}), a per-refund limit only`, cpuPerRefund(perRefund), cpuPerRefund(none), "ms", baselineName),
    row(part, `CPU ms a refund (${cpuOf}), every limit on`, cpuPerRefund(all), cpuPerRefund(none), "ms", baselineName),
    row(
      part,
      `refunds/s, ${AT_ONCE} staff at once, every limit on`,
      perSecond(m.atOnce.all),
      perSecond(m.atOnce.none),
      "refunds/s",
      `the same ${AT_ONCE} at once, no limits set`,
    ),
    row(part, "the counting alone (recentRefunds), ms", alone.counting, alone.limitsRow, "ms", "the limits row's primary-key read", aloneNote),
    row(
      part,
      `the counting's RefundRecord read with ${OLDER_DAYS + 1 + LONGER_HISTORY_DAYS} days of the app's records behind it, ms`,
      alone.longer.records,
      alone.statements.find((st) => st.table === "RefundRecord")!.ms,
      "ms",
      `the same read with ${OLDER_DAYS + 1} days`,
    ),
  ];
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * 12. Refunds asked for in the app, through the refund form's action, with no limits (the
 * baseline), a per-refund limit (the shop's limits row read, nothing counted), and every limit on
 * and none reached (the shop's turn taken and the last 24 hours counted on every refund), on SQLite
 * and, when its server answers, PostgreSQL; `AT_ONCE` staff at once with every limit on against
 * the same without limits; and the counting alone, statement by statement, with its plans.
 */
export async function benchLimits(postgresUrl: string): Promise<BenchRow[]> {
  const url = scratchSqlite("limits");
  migrate(url);
  const sqlite = createPrismaClient(url);
  const result: BenchRow[] = [];
  try {
    result.push(...rows(await measure("SQLite", url, "sqlite", sqlite)));
  } finally {
    await sqlite.$disconnect();
  }
  if (!(await reachable(postgresUrl))) {
    process.stderr.write(`(PostgreSQL not reachable at ${postgresUrl}: part 12 on PostgreSQL is skipped) `);
    return result;
  }
  // The app process loads the Prisma client from node_modules: generated for PostgreSQL while it
  // runs, for SQLite again afterwards (as bench/run.ts does around its PostgreSQL parts).
  const generateFor = (databaseUrl: string) =>
    execFileSync("node", ["scripts/db.mjs", "generate"], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "ignore" });
  const database = await postgresDatabase(postgresUrl, "rv_bench_limits");
  const db = await database.prisma();
  generateFor(database.url);
  try {
    result.push(...rows(await measure("PostgreSQL", database.url, "postgresql", db)));
  } finally {
    generateFor("file:./prisma/bench.sqlite");
    await db.$disconnect();
    await database.drop();
  }
  return result;
}

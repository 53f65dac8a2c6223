import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, parse, printSchema, validate, type GraphQLSchema } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_VERSION } from "../../../app/shopify/api-version";
import { adminSchema } from "../../../fake-shopify/versions";

const root = new URL("../../../", import.meta.url).pathname;
let schema: GraphQLSchema;

beforeAll(() => {
  const file = join(root, `app/shopify/admin/schema/admin-${ADMIN_API_VERSION}.schema.json.gz`);
  schema = buildClientSchema(JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")).data);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "types" || name === "dist") return [];
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every `#graphql` template literal in app/ and extensions/, as Shopify's codegen finds them. */
function documents(): { file: string; text: string }[] {
  return [...sourceFiles(join(root, "app")), ...sourceFiles(join(root, "extensions"))].flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/`(#graphql[\s\S]*?)`/g)].map((match) => ({ file: relative(root, file), text: match[1] })),
  );
}

describe(`Shopify's published Admin API schema ${ADMIN_API_VERSION}`, () => {
  it("is the one vendored for the app's API version, with the types the app reads", () => {
    expect(schema.getQueryType()?.name).toBe("QueryRoot");
    expect(schema.getType("Refund")).toBeDefined();
    expect(schema.getDirective("idempotent")?.args.map((a) => `${a.name}: ${a.type}`)).toEqual(["key: String!"]);
  });

  it("validates every GraphQL document in app/ and extensions/, and they all live in the Shopify gateway", () => {
    const found = documents();
    expect(found.map((d) => /(query|mutation) (\w+)/.exec(d.text)?.[2]).sort()).toEqual([
      "BulkOperationState",
      "BulkQueryRun",
      "DisputeDetails",
      "DisputeEvidence",
      "DisputeProofAdd",
      "FlowTriggerReceive",
      "GrantedScopes",
      "OrderDisputes",
      "OrderExposure",
      "OrderForRefund",
      "OrderNames",
      "OrderRefunds",
      "PaymentsAccount",
      "PaymentsLedger",
      "RefundCreate",
      "RefundReadback",
      "RefundSweep",
      "RefundTransactions",
      "SettlementTransactions",
      "ShopProfile",
    ]);
    for (const { file, text } of found) {
      expect(file).toBe("app/shopify/admin/documents.ts");
      expect(validate(schema, parse(text)).map((e) => e.message)).toEqual([]);
    }
  });

  it("refuses a document the 2026-10 schema does not allow (so the check above can fail)", () => {
    const errors = validate(schema, parse('query { refund(id: "gid://shopify/Refund/1") { id totalRefunded { amount } amountSet { shopMoney { amount } } } }'));
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('Cannot query field "amountSet" on type "Refund"')]);
  });

  it("is what the fake Shopify executes, type for type and nullability for nullability", () => {
    expect(printSchema(adminSchema())).toBe(printSchema(schema));
  });

  it("is the version in shopify.app.toml's [webhooks] and in the order-page block's extension", () => {
    for (const toml of ["shopify.app.toml", "extensions/order-refund-verdicts/shopify.extension.toml"]) {
      expect(readFileSync(join(root, toml), "utf8")).toMatch(new RegExp(`^api_version = "${ADMIN_API_VERSION}"$`, "m"));
    }
  });
});

import { readdirSync, readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { signBody } from "./webhooks";

export interface FlowTriggerDefinition {
  handle: string;
  name: string;
  fields: { type: string; key?: string }[];
}

/** The app's deployed Flow triggers, as Shopify knows them: read from the app's extensions/ folder. */
export function loadFlowTriggers(root = new URL("../extensions/", import.meta.url)): FlowTriggerDefinition[] {
  const triggers: FlowTriggerDefinition[] = [];
  for (const folder of readdirSync(root)) {
    let text: string;
    try {
      text = readFileSync(new URL(`${folder}/shopify.extension.toml`, root), "utf8");
    } catch {
      continue;
    }
    const config = parse(text) as { extensions?: { type: string; handle: string; name: string }[]; settings?: { fields?: { type: string; key?: string }[] } };
    const extension = config.extensions?.[0];
    if (extension?.type === "flow_trigger") triggers.push({ handle: extension.handle, name: extension.name, fields: config.settings?.fields ?? [] });
  }
  return triggers;
}

export interface FlowTriggerCall {
  shop: string;
  handle: string;
  payload: Record<string, unknown>;
  receivedAt: Date;
  /** Whether a workflow of the shop used the trigger (Flow accepts the call either way). */
  ranWorkflows: boolean;
}

/** Reference fields travel as `{resource}_id` keys in the payload; other fields by their key. */
const payloadKey = (field: { type: string; key?: string }) => (field.type.endsWith("_reference") ? `${field.type.replace(/_reference$/, "")}_id` : field.key!);

const MAX_PAYLOAD_BYTES = 50_000;

/**
 * Shopify Flow as far as an app's triggers reach it: flowTriggerReceive checks the handle and the
 * payload against the trigger's fields (as Flow answers userErrors), records each accepted call, and
 * the workflows a merchant turns on or off are announced to the app by a signed lifecycle callback.
 */
export class FakeFlow {
  readonly calls: FlowTriggerCall[] = [];
  private readonly enabled = new Map<string, Set<string>>();

  constructor(readonly triggers: FlowTriggerDefinition[] = loadFlowTriggers()) {}

  receive(shop: string, handle: string | null | undefined, payload: unknown, now: Date): { field: string[]; message: string }[] {
    const trigger = this.triggers.find((t) => t.handle === handle);
    if (!trigger) return [{ field: ["handle"], message: `Trigger with handle ${handle ?? "(none)"} not found` }];
    if (!payload || typeof payload !== "object" || Array.isArray(payload)) return [{ field: ["payload"], message: "Payload must be a JSON object" }];
    if (JSON.stringify(payload).length > MAX_PAYLOAD_BYTES) return [{ field: ["payload"], message: `Payload exceeds ${MAX_PAYLOAD_BYTES} bytes` }];
    const expected = trigger.fields.map(payloadKey);
    const given = Object.keys(payload);
    const errors = [
      ...expected.filter((key) => !given.includes(key)).map((key) => ({ field: ["payload", key], message: `Missing required field: ${key}` })),
      ...given.filter((key) => !expected.includes(key)).map((key) => ({ field: ["payload", key], message: `Unknown field: ${key}` })),
    ];
    const record = payload as Record<string, unknown>;
    for (const field of trigger.fields) {
      const value = record[payloadKey(field)];
      if (value === undefined) continue;
      // A numeric id; its digits as a string where a JSON number would lose them.
      if (field.type.endsWith("_reference") && !Number.isSafeInteger(value) && !(typeof value === "string" && /^[1-9]\d*$/.test(value)))
        errors.push({ field: ["payload", payloadKey(field)], message: "must be a numeric id" });
      if (field.type === "url" && (typeof value !== "string" || !URL.canParse(value)))
        errors.push({ field: ["payload", payloadKey(field)], message: "must be a URL" });
      if (field.type === "single_line_text_field" && typeof value !== "string")
        errors.push({ field: ["payload", payloadKey(field)], message: "must be a string" });
    }
    if (errors.length) return errors;
    this.calls.push({ shop, handle: trigger.handle, payload: record, receivedAt: now, ranWorkflows: this.enabled.get(shop)?.has(trigger.handle) ?? false });
    return [];
  }

  /**
   * A merchant turns a workflow on or off: Flow tells the app at its lifecycle callback URL, signed
   * with the app's secret. Resolves with the app's answer (Flow refuses to enable on a non-2xx).
   */
  async setWorkflow(shop: string, handle: string, on: boolean, target: { appUrl: string; secret: string }, now = new Date()): Promise<Response> {
    const set = this.enabled.get(shop) ?? new Set<string>();
    if (on) set.add(handle);
    else set.delete(handle);
    this.enabled.set(shop, set);
    const body = JSON.stringify({
      flow_trigger_definition_id: handle,
      has_enabled_flow: on,
      shop_id: 690933842,
      shopify_domain: shop,
      timestamp: now.toISOString(),
    });
    return fetch(new URL("/flow/trigger-lifecycle", target.appUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Hmac-Sha256": signBody(body, target.secret) },
      body,
    });
  }
}

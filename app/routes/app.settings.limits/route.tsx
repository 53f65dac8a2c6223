import { json, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Layout, Page } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import db from "../../db.server";
import { authenticateAdmin } from "../../screens/admin-auth.server";
import { interactiveGateway } from "../../shopify.server";
import { requireStaff } from "../../staff/required.server";
import { shopCurrency } from "../../shops/profile.server";
import { limitsPage, saveLimits } from "../../guardrails/settings.server";
import { LimitsForm } from "./components/LimitsForm";
import type { Action, Loader } from "./types";

export const meta: MetaFunction = () => [{ title: "Refund limits · Refund Verifier" }];

const STATUS = { NOT_ALLOWED: 403, INVALID_LIMITS: 422, CONFLICT: 409, NO_CURRENCY: 502 } as const;

export const loader: Loader = async ({ request }) => {
  const auth = await authenticateAdmin(request);
  const now = new Date();
  const currency = await shopCurrency(db, auth.session.shop, { gateway: interactiveGateway(), now });
  return json(await limitsPage(db, auth.session.shop, requireStaff(auth), currency));
};

export const action: Action = async ({ request }) => {
  const auth = await authenticateAdmin(request);
  const now = new Date();
  const form = await request.formData().catch(() => null);
  if (!form)
    return json(
      { ok: false as const, code: "INVALID_LIMITS" as const, message: "The form could not be read. Reload the page and try again." },
      { status: 422 },
    );
  const currency = await shopCurrency(db, auth.session.shop, { gateway: interactiveGateway(), now });
  const result = await saveLimits(db, auth.session.shop, requireStaff(auth), form, currency, now);
  return json(result, { status: result.ok ? 200 : STATUS[result.code] });
};

export default function RefundLimitsSettings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <Page title="Refund limits" subtitle="A second pair of eyes before money leaves." backAction={{ content: "Refunds", url: "/app" }}>
      <TitleBar title="Refund limits" />
      <Layout>
        <Layout.Section>
          <LimitsForm data={data} result={result} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

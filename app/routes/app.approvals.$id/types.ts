// The request page's data types, apart from route.tsx so that its components import them without a circle.
import type { LoaderFunctionArgs, TypedResponse } from "@remix-run/node";
import type { useLoaderData } from "@remix-run/react";
import type { approvalPage } from "../../refunds/approval-page.server";

export type Loader = (args: LoaderFunctionArgs) => Promise<TypedResponse<Awaited<ReturnType<typeof approvalPage>>>>;
export type ApprovalLoaderData = ReturnType<typeof useLoaderData<Loader>>;
/** What approve or decline came to, for the page's banner. */
export interface DecisionAnswer {
  ok: boolean;
  intent: string;
  code?: string;
  message: string;
  risks?: string[];
}

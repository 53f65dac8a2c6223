// The request page's data types, apart from route.tsx so that its components import them without a circle.
import type { useLoaderData } from "@remix-run/react";
import type { load } from "../../screens/approval.server";
import type { screenLoader } from "../../screens/context.server";

export type { DecisionAnswer } from "../../screens/approval.server";
export type Loader = ReturnType<typeof screenLoader<Awaited<ReturnType<typeof load>>>>;
export type ApprovalLoaderData = ReturnType<typeof useLoaderData<Loader>>;

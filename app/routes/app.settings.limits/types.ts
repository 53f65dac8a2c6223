// The limits page's data types, apart from route.tsx so that its components import them without a circle.
import type { ActionFunctionArgs, LoaderFunctionArgs, TypedResponse } from "@remix-run/node";
import type { useLoaderData } from "@remix-run/react";
import type { LimitsSaveResult, limitsPage } from "../../guardrails/settings.server";

export type Loader = (args: LoaderFunctionArgs) => Promise<TypedResponse<Awaited<ReturnType<typeof limitsPage>>>>;
export type Action = (args: ActionFunctionArgs) => Promise<TypedResponse<LimitsSaveResult>>;
export type LimitsLoaderData = ReturnType<typeof useLoaderData<Loader>>;

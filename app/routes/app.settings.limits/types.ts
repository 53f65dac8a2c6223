// The limits page's data types, apart from route.tsx so that its components import them without a circle.
import type { useLoaderData } from "@remix-run/react";
import type { screenAction, screenLoader } from "../../screens/context.server";
import type { act, load } from "../../screens/limit-settings.server";

export type Loader = ReturnType<typeof screenLoader<Awaited<ReturnType<typeof load>>>>;
export type Action = ReturnType<typeof screenAction<Awaited<ReturnType<typeof act>>>>;
export type LimitsLoaderData = ReturnType<typeof useLoaderData<Loader>>;

// The refund form's data types, declared apart from route.tsx: its components and hooks import them from here, and
// route.tsx imports those components, so taking the types from route.tsx would tie the files into a circle.
import type { ActionFunctionArgs, LoaderFunctionArgs, TypedResponse } from "@remix-run/node";
import type { useActionData, useLoaderData } from "@remix-run/react";
import type { RefundAttempts, refundFormAction, refundFormData } from "../../refunds/form.server";

type IssueFailure = Extract<Awaited<ReturnType<typeof refundFormAction>>, { ok: false }>;

/** route.tsx's loader: the server module's form data, and the page's "Back" link (made safe). */
export type Loader = (args: LoaderFunctionArgs) => Promise<Awaited<ReturnType<typeof refundFormData>> & { back: string }>;

/**
 * route.tsx's action: a form that could not be read, the refund issued (or the attempt settled), or why not; with the
 * order's attempts as they are after it, for the side card.
 */
export type Action = (args: ActionFunctionArgs) => Promise<
  TypedResponse<
    | { ok: false; intent: string; code: "INVALID_FORM"; message: string; attempts: null }
    | { ok: true; intent: string; sysId: string; message: string; attempts: RefundAttempts | null }
    | {
        ok: false;
        intent: string;
        code: IssueFailure["code"];
        message: string;
        fieldErrors?: IssueFailure["fieldErrors"];
        risks?: IssueFailure["risks"];
        attempts: RefundAttempts | null;
      }
  >
>;

export type RefundFormData = ReturnType<typeof useLoaderData<Loader>>;
export type Order = RefundFormData["order"];
export type ActionResult = ReturnType<typeof useActionData<Action>>;

/** The side card's records and when they were read: from the page's data, the action's answer, or the attempts route. */
export type Attempts = RefundAttempts;

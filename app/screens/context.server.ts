import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { Params } from "@remix-run/react";
import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import db from "../db.server";
import { requestIdOf } from "../lib/http/request-id.server";
import { logger } from "../lib/logging/logger.server";
import type { ShopifyGateway } from "../shopify/admin/gateway.server";
import { interactiveGateway } from "../shopify.server";
import { shopTimeZone } from "../shops/profile.server";
import { staffOf, type StaffMember } from "../staff/identity.server";
import { authenticateAdmin } from "./admin-auth.server";

/**
 * What every screen's loader and action is given (decision 036), as background work is given its
 * `Helpers`: who is asking and in which shop, as Shopify says it, and the app's means.
 */
export interface ScreenContext {
  /** The shop whose admin sent the request (its session token's destination). */
  shop: string;
  /**
   * The staff member asking: the session token's user, named as Shopify named them (app/staff/). A
   * request whose token names nobody is refused with 401 before any screen runs, never acted on as "someone".
   */
  staff: StaffMember;
  db: PrismaClient;
  /** Shopify, for requests a person waits on: the shop's bucket shared with the workers. */
  gateway: ShopifyGateway;
  /** The clock, read where an instant is needed: a stamp reads it when it stamps, not when the request began. */
  now: () => Date;
  /** The app's logger, with this request's id, its shop and its staff member bound. */
  logger: Logger;
  request: Request;
  url: URL;
  params: Params;
  /** The shop's IANA time zone (stored, else asked of Shopify once; UTC when it cannot say), read at most once a request. */
  timeZone(): Promise<string>;
  /** The admin's CORS headers, for what the admin's own extensions read (the order block). */
  cors(response: Response): Response;
  /** The posted form, read once however many parts of a screen ask; null for a body that is none (answered in words, never a 500). */
  form(): Promise<FormData | null>;
}

/**
 * The staff member a request acts for; a session token that names no user is a 401, with the
 * admin's CORS headers so that an extension (the order block) reads the refusal, not a network error.
 */
function requireStaff(auth: Parameters<typeof staffOf>[0] & { cors: (response: Response) => Response }): StaffMember {
  const staff = staffOf(auth);
  if (!staff) throw auth.cors(new Response("Unauthorized: the session token names no staff member.", { status: 401 }));
  return staff;
}

/** Authenticates the request with Shopify (the admin's session token, exchanged for the shop's and the person's tokens) and builds its context. */
async function screenContext({ request, params }: LoaderFunctionArgs | ActionFunctionArgs): Promise<ScreenContext> {
  const auth = await authenticateAdmin(request);
  const staff = requireStaff(auth);
  const shop = auth.session.shop;
  const now = () => new Date();
  const gateway = interactiveGateway();
  let timeZone: Promise<string> | undefined;
  let form: Promise<FormData | null> | undefined;
  return {
    shop,
    staff,
    db,
    gateway,
    now,
    logger: logger.child({ requestId: requestIdOf(request), shop, staff: staff.userId }),
    request,
    url: new URL(request.url),
    params,
    timeZone: () => (timeZone ??= shopTimeZone(db, shop, { gateway, now: now() })),
    cors: auth.cors,
    form: () => (form ??= request.formData().catch(() => null)),
  };
}

/** A screen's loader: its data for the page (a Response, thrown or returned, passes as it is). */
export const screenLoader =
  <T>(load: (context: ScreenContext) => Promise<T>) =>
  async (args: LoaderFunctionArgs) =>
    load(await screenContext(args));

/** What an action answers: the page's data, which says the HTTP status it is sent with. */
export type Answer = { status: number };

/** A screen's action: its answer, sent with the status the answer names. */
export const screenAction =
  <T extends Answer>(act: (context: ScreenContext) => Promise<T>) =>
  async (args: ActionFunctionArgs) => {
    const answer = await act(await screenContext(args));
    return data(answer, { status: answer.status });
  };

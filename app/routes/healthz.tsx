import db from "../db.server";

/** For load balancers and the demo: the process serves and its database answers. */
export const loader = async () => {
  await db.$queryRaw`SELECT 1`;
  return new Response("ok", { headers: { "Cache-Control": "no-store" } });
};

import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "./lib/db/client";
import { config } from "./lib/config/env.server";

declare global {
  var prismaGlobal: PrismaClient | undefined;
}

// One client per process; Vite's dev server reloads modules, so keep it on globalThis there.
const prisma = globalThis.prismaGlobal ?? createPrismaClient();
if (config().NODE_ENV !== "production") globalThis.prismaGlobal = prisma;

export default prisma;

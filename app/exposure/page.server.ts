import type { PrismaClient } from "@prisma/client";
import { readStored } from "../db/stored-json";
import { exposureView, storedExposure, type ExposureView } from "./view";

/** The evidence page's "Money at risk twice" section for one of the shop's refunds; null before it has an exposure (not verified, or not opened yet). */
export async function exposureOfRefund(db: PrismaClient, shop: string, operationId: string): Promise<ExposureView | null> {
  const row = await db.exposure.findFirst({
    where: { shop, operationId },
    select: { status: true, reasons: true, atRisk: true, currency: true, observed: true },
  });
  if (!row) return null;
  // The app writes `observed` itself; a value of another version shows the verdict without the disputes.
  return exposureView(row, readStored(storedExposure, row.observed) ?? null);
}

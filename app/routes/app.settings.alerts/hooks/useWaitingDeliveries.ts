import { useRefreshedWhile } from "../../../components/useRefreshedWhile";
import type { AlertsLoaderData } from "../types";

type Deliveries = AlertsLoaderData["deliveries"];
const WAITING = new Set(["pending", "sending"]);

/** The delivery log, read again while a message in it waits to be sent: "Waiting to send" turns "Delivered" without a reload. */
export function useWaitingDeliveries(deliveries: Deliveries): Deliveries {
  return useRefreshedWhile(
    deliveries,
    (data: AlertsLoaderData) => data.deliveries,
    (current) => current.some((delivery) => WAITING.has(delivery.status)),
  );
}

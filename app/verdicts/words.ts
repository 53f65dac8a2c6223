/**
 * Words for people, shared by every screen, alert and export (nothing here imports a screen).
 * An order is its name (#1340), as the admin's search finds it; "order 9007199255858359" (the
 * number in the admin's address) only while Shopify has given no name for it.
 */
export const orderLabel = (order: { orderName: string | null; orderId: string }): string => order.orderName ?? `order ${order.orderId}`;

export const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

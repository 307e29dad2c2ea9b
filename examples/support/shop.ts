/**
 * A tiny in-memory shop backend and the two tools the refund agent uses. The tools have a
 * real side effect here — `issue_refund` appends to `shop.refunds` — and every tool body that
 * runs increments `shop.toolRuns`, so the examples (and the demo's table) can count what a
 * replay ran: nothing.
 */
import { tool } from "@langchain/core/tools";
import { z } from "zod";

const ORDERS: Record<string, { status: string; total: number }> = {
  "42": { status: "delivered", total: 25 },
  "7": { status: "processing", total: 80 },
};

export const shop = {
  /** Refunds issued: the side effect a replay must never repeat. */
  refunds: [] as { orderId: string; amount: number }[],
  /** Tool bodies run in this process. */
  toolRuns: 0,
  reset(): void {
    this.refunds.length = 0;
  },
};

export const getOrderStatus = tool(
  async ({ orderId }: { orderId: string }) => {
    shop.toolRuns++;
    const order = ORDERS[orderId];
    return order ? `Order ${orderId}: ${order.status}, total $${order.total}.` : `No order ${orderId}.`;
  },
  {
    name: "get_order_status",
    description: "Look up an order's delivery status and total.",
    schema: z.object({ orderId: z.string().describe("the order number") }),
  },
);

// #region issue-refund
export const issueRefund = tool(
  async ({ orderId, amount }: { orderId: string; amount: number }) => {
    shop.toolRuns++;
    shop.refunds.push({ orderId, amount }); // the real side effect: money leaves the shop
    return `Refund of $${amount} issued for order ${orderId}.`;
  },
  {
    name: "issue_refund",
    description: "Refund part or all of an order to the customer's card.",
    schema: z.object({ orderId: z.string(), amount: z.number().describe("dollars") }),
  },
);
// #endregion issue-refund

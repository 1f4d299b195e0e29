// Flows and intents are checked against the tool set when they are declared: a misspelt answer field, a parameter
// the tool does not take, or an intent for a tool that is not there is refused naming the real ones, with nothing
// written, instead of yielding tasks nobody can pass.
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "./helpers/cli";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-flow-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "shop.openapi.yaml"), join(dir, "shop.yaml"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const init = (...flags: string[]) => runCli(["tools", "init", "--force", "--own-file", "shop.yaml", ...flags], { cwd: dir });

describe("init checks flows and intents against the schemas", () => {
  it("refuses an answer field the first tool's answer does not have, naming its fields", async () => {
    const r = await init("--own-flow", "getOrder.idd:refundOrder.order_id");
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("worlds tools init: --own-flow getOrder.idd:refundOrder.order_id: getOrder's answer has no field idd (its fields: id, status, total, note)");
    expect(existsSync(join(dir, "worlds", "tools.yaml"))).toBe(false);
  });

  it("refuses a parameter the second tool does not take, naming its parameters", async () => {
    const r = await init("--own-flow", "getOrder.id:refundOrder.orderid");
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("worlds tools init: --own-flow getOrder.id:refundOrder.orderid: refundOrder takes no parameter orderid (its parameters: order_id, amount, reason)");
  });

  it("refuses an intent for a tool the set does not hold", async () => {
    const r = await init("--own-intent", "refund_ordr=refund the order");
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^worlds tools init: --own-intent refund_ordr is no usable tool of the set \(its tools: getOrder, listOrders, refundOrder, getCategory, delete__categories__id_\)$/);
  });

  it("accepts a flow that fits both schemas", async () => {
    const r = await init("--own-flow", "getOrder.id:refundOrder.order_id");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/flow\s+reachable: getOrder.id -> refundOrder.order_id/);
  });
});

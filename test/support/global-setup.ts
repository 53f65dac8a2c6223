import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dropTemplate, prepareTemplate } from "./database";

const root = new URL("../..", import.meta.url).pathname;

/** Once per run: build the app the route tests serve, and migrate the template database. */
export default async function setup() {
  execFileSync("node_modules/.bin/remix", ["vite:build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const template = await prepareTemplate(randomBytes(4).toString("hex"));
  process.env.RV_TEST_TEMPLATE = template;
  return async () => dropTemplate(template);
}

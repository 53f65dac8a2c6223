// The app's HTTP listener, shared by `npm start` (server/index.mjs) and the tests: refunds/create
// deliveries go straight to the intake's Node handler; everything else to Remix behind express,
// with the static files and compression remix-serve gave.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "@remix-run/express";

const root = fileURLToPath(new URL("..", import.meta.url));

/** @param {import("@remix-run/node").ServerBuild} build */
export function createAppListener(build, mode = process.env.NODE_ENV ?? "production") {
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(build.publicPath, express.static(resolve(root, build.assetsBuildDirectory), { immutable: true, maxAge: "1y" }));
  app.use(express.static(resolve(root, "public"), { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build, mode }));
  const intake = build.entry.module.handleRefundDeliveryNode;
  if (typeof intake !== "function") throw new Error("the server build does not export handleRefundDeliveryNode from app/entry.server.tsx");
  return (req, res) => {
    if (!intake(req, res)) app(req, res);
  };
}

import { config } from "../config/env.server";
export type DatabaseKind = "sqlite" | "postgresql";

export function databaseUrl(): string {
  return config().DATABASE_URL;
}

export function databaseKind(url: string): DatabaseKind {
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), got "${url.split(":")[0]}:…"`);
}

export type DatabaseKind = "sqlite" | "postgresql";

export const DEFAULT_DATABASE_URL = "file:./prisma/dev.sqlite";

export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function databaseKind(url: string): DatabaseKind {
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), got "${url.split(":")[0]}:…"`);
}

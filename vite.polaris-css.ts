import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import postcss from "postcss";
import type { Plugin, ResolvedConfig } from "vite";

const POLARIS_CLASS = /Polaris-[A-Za-z0-9_-]+/g;

/** Every file below `dir` whose name ends with one of `endings`. */
function filesBelow(dir: string, endings: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesBelow(path, endings);
    return endings.some((ending) => name.endsWith(ending)) ? [path] : [];
  });
}

/** The stylesheet without the rules whose Polaris classes no script uses (rules with no Polaris class stay). */
export function withoutUnusedPolarisRules(css: string, used: Set<string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    if (rule.parent?.type === "atrule" && /keyframes$/.test((rule.parent as postcss.AtRule).name)) return;
    const kept = rule.selectors.filter((selector) => (selector.match(POLARIS_CLASS) ?? []).every((name) => used.has(name)));
    if (kept.length) rule.selectors = kept;
    else rule.remove();
  });
  root.walkAtRules((atRule) => {
    if (atRule.nodes && atRule.nodes.length === 0) atRule.remove();
  });
  return root.toString();
}

/**
 * Polaris ships one stylesheet for all its components (444 KB, 52 KB compressed) and every page
 * waits for it before its first paint; the app uses about half its rules. Once both builds are
 * written, the rules whose Polaris classes appear in none of the client's scripts (Polaris's own
 * class maps are in them as strings, so a component's every variant is kept) are left out of it:
 * 256 KB, 30 KB compressed. The file gets a name from its new content, and the references to the
 * old name in both builds follow, so a browser never keeps an old copy under a name it trusts
 * for a year.
 */
export function unusedPolarisCss(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "refund-verifier:unused-polaris-css",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      // The server build is the second: the client's assets are on disk by then.
      if (!config.build.ssr) return;
      const build = join(config.root, "build");
      const assets = join(build, "client", "assets");
      const scripts = filesBelow(join(build, "client"), [".js"]);
      const used = new Set(scripts.flatMap((file) => readFileSync(file, "utf8").match(POLARIS_CLASS) ?? []));
      const renamed = new Map<string, string>();
      for (const file of readdirSync(assets).filter((name) => /^styles-.*\.css$/.test(name))) {
        const css = readFileSync(join(assets, file), "utf8");
        if (!css.includes(".Polaris-")) continue;
        const kept = withoutUnusedPolarisRules(css, used);
        const name = `polaris-${createHash("sha256").update(kept).digest("base64url").slice(0, 10)}.css`;
        writeFileSync(join(assets, name), kept);
        rmSync(join(assets, file));
        renamed.set(file, name);
      }
      for (const file of filesBelow(build, [".js", ".mjs", ".css", ".json"])) {
        const text = readFileSync(file, "utf8");
        let changed = text;
        for (const [from, to] of renamed) changed = changed.split(from).join(to);
        if (changed === text) continue;
        writeFileSync(`${file}.tmp`, changed);
        renameSync(`${file}.tmp`, file);
      }
    },
  };
}

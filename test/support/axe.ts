import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * axe-core's serious and critical violations on the page as a person sees it (the app's frame
 * included), one line each, so a failing test says which rule and how many nodes.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page: page as never }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.length} node${violation.nodes.length === 1 ? "" : "s"}: ${violation.nodes[0]?.target.join(" ")})`,
    );
}

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { evaluate } from "./evaluate";
import { ContractError, loadContractText, parseBindingsText } from "./load";
import { renderContract } from "./render";
import { attemptSchedule } from "./timing";

const USAGE = `usage: contract <command> …
  evaluate <contract.json> <bindings.json>   print the verdict and every condition as JSON
  schedule <contract.json>                   print the planned attempt times (ms after the start), one per line
  render <contract.json>                     print the contract as Markdown
  hash <contract.json>                       print the declared and computed hashes and whether they differ`;

class UsageError extends Error {}

function readText(file: string | undefined, what: string): string {
  if (!file) throw new UsageError(`missing ${what}\n${USAGE}`);
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new ContractError(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Node's own parser: the commands take files only, so any option is refused with the usage. */
function parseCommand(args: string[]): string[] {
  try {
    return parseArgs({ args, allowPositionals: true, strict: true }).positionals;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

export function runCli(args: string[]): { stdout: string; stderr: string; exitCode: number } {
  try {
    const [command, ...rest] = parseCommand(args);
    const contract = () => loadContractText(readText(rest[0], "contract file"));
    switch (command) {
      case "evaluate": {
        const loaded = contract();
        const bindings = parseBindingsText(readText(rest[1], "bindings file"));
        return { stdout: `${JSON.stringify(evaluate(loaded, bindings), null, 2)}\n`, stderr: "", exitCode: 0 };
      }
      case "schedule":
        return { stdout: `${attemptSchedule(contract().contract.timing).join("\n")}\n`, stderr: "", exitCode: 0 };
      case "render":
        return { stdout: renderContract(contract()), stderr: "", exitCode: 0 };
      case "hash": {
        const { declaredHash, computedHash } = contract();
        // Differing hashes are not an error: an author may hash the contract with its own tool and form.
        const verdict =
          declaredHash === computedHash ? "declared and computed match" : "declared and computed differ: the declared hash was made by the contract's author's tool";
        return { stdout: `declared ${declaredHash}\ncomputed ${computedHash}\n${verdict}\n`, stderr: "", exitCode: 0 };
      }
      default:
        throw new UsageError(command ? `unknown command: ${command}\n${USAGE}` : USAGE);
    }
  } catch (error) {
    if (error instanceof ContractError || error instanceof UsageError) {
      return { stdout: "", stderr: `contract: ${error.message}\n`, exitCode: 2 };
    }
    throw error;
  }
}

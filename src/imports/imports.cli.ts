import { systemContext } from "../auth/context";
import { untilCommitted } from "../db/tx";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import { newId } from "../lib/ids";
import { findWorkspace, findWorkspaceBySlug } from "../workspaces/workspaces.public";
import { csvKeyOf } from "./imports.csv";
import { runImportSteps } from "./imports.engine";
import { CreateImportBody, CSV_KINDS } from "./imports.schemas";
import { presentImport } from "./imports.present";
import { createImport, findImport } from "./imports.service";
import { accountOf } from "./imports.sources";
import type { ImportJson } from "./imports.schemas";

export const IMPORT_USAGE =
  "import <zendesk|freshdesk|helpscout|imap|csv> --workspace <id or slug> [--option value …]   bring another help desk's history (README: Bringing your history)";

const HELP = `usage: desk import zendesk --workspace <id or slug> --subdomain <s> --email <e> --api-token <t> [--base-url <url>] [--requests-per-minute <n>] [--export-requests-per-minute <n>]
       desk import freshdesk --workspace <id or slug> --domain <acme> --api-key <k> [--base-url <url>] [--requests-per-minute <n>]
       desk import helpscout --workspace <id or slug> --app-id <id> --app-secret <s> [--base-url <url>] [--requests-per-minute <n>]
       desk import imap --workspace <id or slug> --host <h> --port <n> --username <u> --password <p> [--tls tls|starttls|none] [--folders INBOX,Archive]
       desk import csv --workspace <id or slug> --kind contacts|companies --file <path>`;

type Out = Pick<Console, "log" | "error">;

/** `--api-token x --base-url y` → `{ api_token: "x", base_url: "y" }`; numbers where the option is one. */
function parseFlags(args: string[]): Record<string, string | number> | string {
  const out: Record<string, string | number> = {};
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i]!;
    const value = args[i + 1];
    if (!flag.startsWith("--") || value === undefined) return `expected --option value, got ${flag}`;
    const key = flag.slice(2).replace(/-/g, "_");
    out[key] = /_per_minute$/.test(key) && /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

function bar(job: ImportJson, width = 30): string {
  const { phase, done, total } = job.progress;
  const share = total ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${phase} ${done}${total ? `/${total}` : ""}  tickets ${job.counts.tickets}  messages ${job.counts.messages}`;
}

function summary(job: ImportJson): string {
  const c = job.counts;
  const lines = [
    `import ${job.id}: ${job.status}`,
    `  tickets ${c.tickets}, messages ${c.messages}, attachments ${c.attachments}, contacts ${c.contacts}, companies ${c.companies}, agents ${c.users}, unchanged or skipped ${c.skipped}, failed ${c.failed}`,
    ...job.errors.slice(0, 20).map((e) => `  ${e.record}: ${e.message}`),
  ];
  if (job.errors.length > 20) lines.push(`  … ${job.errors.length - 20} more (GET /v1/imports/${job.id})`);
  return lines.join("\n");
}

/**
 * `desk import <source> --workspace <id or slug> [--option value …]`: starts the import like
 * POST /v1/imports and runs it in this process (holding the import, so a running server's job
 * waits; if this process stops, that job goes on from the last committed page). Exit 0 only when
 * it succeeded. `openDeps` opens the desk and says how to close it: the database is its opener's to close.
 */
export async function runImportCommand(
  args: string[],
  openDeps: () => Promise<{ deps: Deps; close(): void }>,
  out: Out = console,
): Promise<number> {
  const [source, ...rest] = args;
  const flags = parseFlags(rest);
  if (!source || typeof flags === "string" || typeof flags.workspace !== "string") {
    out.error(typeof flags === "string" ? `${flags}\n${HELP}` : HELP);
    return 2;
  }
  const { workspace: ref, ...options } = flags;
  const { deps, close } = await openDeps();
  try {
    const workspace = (await findWorkspace(deps.db, String(ref))) ?? (await findWorkspaceBySlug(deps.db, String(ref)));
    if (!workspace) {
      out.error(`no workspace with the id or slug ${ref}`);
      return 1;
    }
    const ctx = systemContext(workspace.id, "cli");
    let id: string;
    if (source === "csv") {
      const kind = String(options.kind ?? "");
      if (!(CSV_KINDS as readonly string[]).includes(kind) || typeof options.file !== "string") {
        out.error(HELP);
        return 2;
      }
      id = newId();
      // The operator's file is copied into the store: the job (here or the server's) reads it from there.
      await deps.blobs.put(csvKeyOf(id), Bun.file(options.file), { contentType: "text/csv" });
      id = (await createImport(ctx, { id, source: "csv", account: kind, options: {} }, deps)).id;
    } else {
      const parsed = CreateImportBody.safeParse({ source, options });
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          out.error(
            `${issue.path.length > 1 ? `--${String(issue.path.at(-1)).replace(/_/g, "-")}` : source}: ${issue.message}`,
          );
        return 2;
      }
      id = (
        await createImport(
          ctx,
          { source: parsed.data.source, account: accountOf(parsed.data), options: parsed.data.options },
          deps,
        )
      ).id;
    }
    await untilCommitted(deps.db);
    const controller = new AbortController();
    const stop = () => controller.abort(new Error("interrupted"));
    process.once("SIGINT", stop);
    const tty = process.stdout.isTTY === true;
    let last = "";
    const show = async () => {
      const line = bar(presentImport(await findImport(deps.db, workspace.id, id)));
      if (tty) process.stdout.write(`\r${line}\x1b[K`);
      else if (line.split(" ")[1] !== last.split(" ")[1]) out.log(line);
      last = line;
    };
    try {
      for (;;) {
        const outcome = await runImportSteps(deps, id, { sliceMs: 1000, signal: controller.signal, holder: "cli" });
        await untilCommitted(deps.db);
        await show();
        if (outcome.kind === "finished") break;
        // The server's job holds it: watch it instead.
        if (outcome.kind === "busy") await Bun.sleep(Math.min(outcome.retryInMs, 1000));
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      out.error(`\nstopped; the import goes on in Desk's jobs from its last page (GET /v1/imports/${id})`);
      return 1;
    } finally {
      process.off("SIGINT", stop);
    }
    if (tty) process.stdout.write("\n");
    const job = presentImport(await findImport(deps.db, workspace.id, id));
    out.log(summary(job));
    return job.status === "succeeded" ? 0 : 1;
  } catch (error) {
    if (!(error instanceof DeskError)) throw error;
    out.error(error.detail);
    return 1;
  } finally {
    await untilCommitted(deps.db).catch(() => undefined);
    close();
  }
}

import type { Deps } from "../deps";
import { HttpStatusError } from "./imports.http";
import type { CreateImportInput } from "./imports.schemas";
import { SourceError } from "./imports.source";
import { sourceFor } from "./imports.sources";

/** Tests a source's credentials and answers its own totals: the screen's preview before a run. */
export async function checkSource(
  input: CreateImportInput,
  deps: Pick<Deps, "config">,
): Promise<{ ok: boolean; totals: Record<string, number>; message: string | null }> {
  const source = sourceFor(input, deps.config);
  try {
    const totals = await source.totals(AbortSignal.timeout(30_000));
    return {
      ok: true,
      totals: Object.fromEntries(Object.entries(totals).filter((e): e is [string, number] => e[1] !== undefined)),
      message: null,
    };
  } catch (error) {
    if (error instanceof SourceError || error instanceof HttpStatusError)
      return { ok: false, totals: {}, message: error.message };
    if (error instanceof DOMException && error.name === "TimeoutError")
      return { ok: false, totals: {}, message: "The source did not answer within 30 seconds." };
    throw error;
  }
}

import pkg from "../../package.json" with { type: "json" };

/**
 * What this build of Desk is. The executable is stamped by scripts/build.ts (`setBuildInfo`) with
 * `git describe` and the commit it was built from; a run from source asks git once, on demand.
 */
export type BuildInfo = { version: string; commit: string | null };

let stamped: BuildInfo | null = null;

/** @public Called by the executable's generated entry (scripts/build.ts) before main runs. */
export function setBuildInfo(info: BuildInfo): void {
  stamped = info;
}

export function buildInfo(): BuildInfo {
  stamped ??= fromGit() ?? { version: pkg.version, commit: null };
  return stamped;
}

/** `0.1.0-12-gb99273a` → `0.1.0+12.gb99273a`: the package version, commits since its tag, the commit. */
export function versionFromDescribe(describe: string, packageVersion: string): string {
  const match = /^v?(\d+\.\d+\.\d+)-(\d+)-g([0-9a-f]+)(-dirty)?$/.exec(describe.trim());
  if (match) return `${match[1]}+${match[2]}.g${match[3]}${match[4] ? ".dirty" : ""}`;
  const tagOnly = /^v?(\d+\.\d+\.\d+)(-dirty)?$/.exec(describe.trim());
  if (tagOnly) return `${tagOnly[1]}${tagOnly[2] ? "+dirty" : ""}`;
  // No tag reachable (a shallow clone): the package version and the abbreviated commit.
  const commitOnly = /^([0-9a-f]{7,40})(-dirty)?$/.exec(describe.trim());
  if (commitOnly) return `${packageVersion}+g${commitOnly[1]}${commitOnly[2] ? ".dirty" : ""}`;
  return packageVersion;
}

function fromGit(): BuildInfo | null {
  const git = (args: string[]) => {
    try {
      const result = Bun.spawnSync(["git", ...args], { cwd: import.meta.dir, stdout: "pipe", stderr: "ignore" });
      return result.exitCode === 0 ? result.stdout.toString().trim() : null;
    } catch {
      return null;
    }
  };
  const commit = git(["rev-parse", "HEAD"]);
  if (!commit) return null;
  const describe = git(["describe", "--tags", "--always", "--dirty"]) ?? commit;
  return { version: versionFromDescribe(describe, pkg.version), commit };
}

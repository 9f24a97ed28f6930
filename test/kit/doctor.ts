import { type DoctorProbes, type diagnose, realProbes } from "../../src/doctor/doctor";

/** The real probes, but DNS answers from a table: this machine has no resolver for public names. */
export const doctorProbes = (mx: Record<string, string[]>): DoctorProbes => ({
  ...realProbes,
  mx: async (domain) => {
    const hosts = mx[domain];
    if (!hosts) throw new Error(`queryMx ENOTFOUND ${domain}`);
    return hosts;
  },
});

/** The environment of a desk on `dataDir`, with `extra` on top. */
export const doctorEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
  DESK_DATA_DIR: dataDir,
  DESK_HOST: "127.0.0.1",
  DESK_SECRET: "doctor-test-secret-long-enough-0123456789",
  ...extra,
});

/** The findings of one check. */
export const findingsOf = (findings: Awaited<ReturnType<typeof diagnose>>, check: string) =>
  findings.filter((f) => f.check === check);

import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { generateKeyPairSync, type KeyObject, X509Certificate } from "node:crypto";
import { eq } from "drizzle-orm";
import { startTestDesk } from "../../test/harness";
import { createUser } from "../../test/factories";
import { APPLE_APP_ATTEST_ROOT } from "./app-attest";
import { appAttestKeys } from "./app-attest.table";
import { FakeAppAttest, type DeviceKey } from "../../test/kit/app-attest";
import { NATIVE } from "../../test/kit/browser";

const APP_ID = "TEAMID1234.com.example.desk";
const apple = await FakeAppAttest.create();
const desk = await startTestDesk({
  env: { APP_ATTEST_APP_IDS: `OTHERTEAM1.com.example.other, ${APP_ID}` },
  config: { appAttestRoots: [apple.rootPem] },
});

async function challenge(): Promise<string> {
  const res = await desk.api("POST", "/v1/auth/app-attest/challenge", { headers: NATIVE });
  expect(res.status).toBe(200);
  expect(res.body.expires_in).toBe(300);
  return res.body.challenge;
}

async function registered(): Promise<DeviceKey> {
  const key = await apple.newKey();
  const c = await challenge();
  const res = await desk.api("POST", "/v1/auth/app-attest/keys", {
    headers: NATIVE,
    body: { key_id: key.keyId, challenge: c, attestation: await apple.attest(key, c, APP_ID) },
  });
  expect(res.status).toBe(201);
  return key;
}

test("the pinned root is Apple's App Attestation Root CA, by its published SHA-256 fingerprint", () => {
  const root = new X509Certificate(APPLE_APP_ATTEST_ROOT);
  expect(root.fingerprint256).toBe(
    "1C:B9:82:3B:A2:8B:A6:AD:2D:33:A0:06:94:1D:E2:AE:4F:51:3E:F1:D4:E8:31:B9:F7:E0:FA:7B:62:42:C9:32",
  );
  expect(root.subject).toContain("CN=Apple App Attestation Root CA");
  expect(root.verify(root.publicKey)).toBe(true);
});

test("without APP_ATTEST_APP_IDS both routes answer 404", async () => {
  const off = await startTestDesk();
  expect((await off.api("POST", "/v1/auth/app-attest/challenge", { headers: NATIVE })).status).toBe(404);
  const res = await off.api("POST", "/v1/auth/app-attest/keys", {
    headers: NATIVE,
    body: { key_id: "a2V5", challenge: "c", attestation: "YQ==" },
  });
  expect(res.status).toBe(404);
});

describe("registering a key (attestation)", () => {
  test("a valid attestation registers the key with its app and environment", async () => {
    const key = await apple.newKey();
    const c = await challenge();
    const res = await desk.api("POST", "/v1/auth/app-attest/keys", {
      headers: NATIVE,
      body: { key_id: key.keyId, challenge: c, attestation: await apple.attest(key, c, APP_ID) },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key_id: key.keyId, app_id: APP_ID, environment: "development" });
    const row = first(
      await desk.deps.db.select().from(appAttestKeys).where(eq(appAttestKeys.keyId, key.keyId)).limit(1),
    )!;
    expect(row.counter).toBe(0);
    expect(row.publicKey).toStartWith("-----BEGIN PUBLIC KEY-----");
    expect(Buffer.from(row.receipt, "base64").toString()).toBe("receipt");
    // The production AAGUID is accepted too.
    const prod = await apple.newKey();
    const c2 = await challenge();
    const answer = await desk.api("POST", "/v1/auth/app-attest/keys", {
      headers: NATIVE,
      body: {
        key_id: prod.keyId,
        challenge: c2,
        attestation: await apple.attest(prod, c2, APP_ID, {
          aaguid: Buffer.concat([Buffer.from("appattest"), Buffer.alloc(7)]),
        }),
      },
    });
    expect(answer.body.environment).toBe("production");
  });

  test("each of Apple's checks refuses its own forgery with 422 invalid_attestation at body.attestation", async () => {
    const cases: Array<[string, Parameters<FakeAppAttest["attest"]>[3], string?]> = [
      ["another app's RP ID", {}, "TEAMID9999.com.example.evil"],
      ["a counter that is not 0", { counter: 1 }],
      ["an AAGUID that is not App Attest's", { aaguid: Buffer.from("notappattest0000") }],
      ["a nonce over another challenge", { nonceFor: "some-other-challenge" }],
      ["a credential id that is not the key id", { credentialId: Buffer.alloc(32, 7) }],
      ["a chain not signed by the CA", { selfIssued: true }],
      ["an expired credential certificate", { expired: true }],
      ["another attestation format", { fmt: "packed" }],
    ];
    for (const [label, knobs, appId] of cases) {
      const key = await apple.newKey();
      const c = await challenge();
      const res = await desk.api("POST", "/v1/auth/app-attest/keys", {
        headers: NATIVE,
        body: { key_id: key.keyId, challenge: c, attestation: await apple.attest(key, c, appId ?? APP_ID, knobs) },
      });
      expect({ label, status: res.status, code: res.body.code }).toEqual({
        label,
        status: 422,
        code: "invalid_attestation",
      });
      expect(res.body.errors[0].location).toBe("body.attestation");
      expect(
        first(await desk.deps.db.select().from(appAttestKeys).where(eq(appAttestKeys.keyId, key.keyId)).limit(1)),
      ).toBeUndefined();
    }
  });

  test("a key id that is not the certified key's hash is refused", async () => {
    const key = await apple.newKey();
    const other = await apple.newKey();
    const c = await challenge();
    const res = await desk.api("POST", "/v1/auth/app-attest/keys", {
      headers: NATIVE,
      body: { key_id: other.keyId, challenge: c, attestation: await apple.attest(key, c, APP_ID) },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("key id");
  });

  test("an attestation by a different root (Apple's real one is not the test CA) is refused", async () => {
    const strict = await startTestDesk({ env: { APP_ATTEST_APP_IDS: APP_ID } });
    const key = await apple.newKey();
    const c = (await strict.api("POST", "/v1/auth/app-attest/challenge", { headers: NATIVE })).body.challenge;
    const res = await strict.api("POST", "/v1/auth/app-attest/keys", {
      headers: NATIVE,
      body: { key_id: key.keyId, challenge: c, attestation: await apple.attest(key, c, APP_ID) },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("root");
  });

  test("the challenge is single-use (422 invalid_challenge at body.challenge); a key registers once (409); garbage is 422", async () => {
    const key = await apple.newKey();
    const c = await challenge();
    const attestation = await apple.attest(key, c, APP_ID);
    expect(
      (await desk.api("POST", "/v1/auth/app-attest/keys", { body: { key_id: key.keyId, challenge: c, attestation } }))
        .status,
    ).toBe(201);
    const again = await desk.api("POST", "/v1/auth/app-attest/keys", {
      body: { key_id: key.keyId, challenge: c, attestation },
    });
    expect(again.status).toBe(422);
    expect(again.body.errors[0].location).toBe("body.challenge");
    const c2 = await challenge();
    const dup = await desk.api("POST", "/v1/auth/app-attest/keys", {
      body: { key_id: key.keyId, challenge: c2, attestation: await apple.attest(key, c2, APP_ID) },
    });
    expect(dup.status).toBe(409);
    const c3 = await challenge();
    const junk = await desk.api("POST", "/v1/auth/app-attest/keys", {
      body: { key_id: key.keyId, challenge: c3, attestation: "bm90IGNib3I=" },
    });
    expect(junk.status).toBe(422);
    const shape = await desk.api("POST", "/v1/auth/app-attest/keys", { body: { key_id: "", attestation: "!" } });
    expect(shape.status).toBe(422);
    expect([...new Set(shape.body.errors.map((e: { location: string }) => e.location))].sort()).toEqual([
      "body.attestation",
      "body.challenge",
      "body.key_id",
    ]);
  });
});

describe("an app_attest proof where the web sends a solved challenge", () => {
  /** An account that failed three times, so login asks for a challenge. */
  async function suspicious() {
    const person = await createUser(desk, { password: "right password" });
    for (let i = 0; i < 3; i++)
      await desk.api("POST", "/v1/auth/login", { headers: NATIVE, body: { email: person.email, password: "wrong" } });
    const asked = await desk.api("POST", "/v1/auth/login", {
      headers: NATIVE,
      body: { email: person.email, password: "right password" },
    });
    expect(asked.status).toBe(403);
    expect(asked.body.code).toBe("challenge_required");
    return person;
  }
  const proofFor = async (key: DeviceKey, counter: number, knobs: { signer?: KeyObject; challenge?: string } = {}) => {
    const clientData = Buffer.from(JSON.stringify({ challenge: knobs.challenge ?? (await challenge()) }));
    return {
      key_id: key.keyId,
      client_data: clientData.toString("base64"),
      assertion: apple.assert(key, clientData, APP_ID, counter, { signer: knobs.signer }),
    };
  };

  test("a valid assertion stands in for the challenge: a native session with refresh_token", async () => {
    const person = await suspicious();
    const key = await registered();
    const res = await desk.api("POST", "/v1/auth/login", {
      headers: NATIVE,
      body: { email: person.email, password: "right password", app_attest: await proofFor(key, 1) },
    });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeString();
    expect(
      first(await desk.deps.db.select().from(appAttestKeys).where(eq(appAttestKeys.keyId, key.keyId)).limit(1))!
        .counter,
    ).toBe(1);
  });

  test("refused (403 challenge_failed): wrong signer, unknown key, replayed proof, counter not rising", async () => {
    const person = await suspicious();
    const key = await registered();
    const login = (app_attest: unknown, password = "right password") =>
      desk.api("POST", "/v1/auth/login", { headers: NATIVE, body: { email: person.email, password, app_attest } });
    const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    expect((await login(await proofFor(key, 9, { signer: stranger }))).body.code).toBe("challenge_failed");
    expect((await login(await proofFor(await apple.newKey(), 1))).body.code).toBe("challenge_failed");
    // A valid proof with the wrong password: the proof is spent (counter 3), the password still fails.
    const proof = await proofFor(key, 3);
    expect((await login(proof, "wrong password")).status).toBe(401);
    expect((await login(proof)).body.code).toBe("challenge_failed"); // replayed: its challenge is spent
    expect((await login(await proofFor(key, 3))).body.code).toBe("challenge_failed"); // counter did not rise
    expect((await login(await proofFor(key, 4))).status).toBe(200);
  }, 20_000);
});

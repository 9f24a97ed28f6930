/** The signed-in person's own lists (passkeys, sessions, single sign-on) and the invitation being accepted. */
export const accountKeys = {
  passkeys: ["my-passkeys"] as const,
  sessions: ["my-sessions"] as const,
  ssoProviders: ["sso-providers"] as const,
  ssoIdentities: ["my-sso-identities"] as const,
  invite: (token: string) => ["invite", token] as const,
};

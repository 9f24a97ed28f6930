-- Rate limits and spent sign-in challenges, shared by every node (DECISIONS.md "Past one machine"):
-- SQLite's one process keeps them in memory, so this step has no SQLite twin. A hit is one row,
-- kept until its window has passed (`expires_at`, ms since the epoch); a spent challenge is one row
-- until its challenge could no longer verify.
CREATE TABLE rate_limit_hits (
  name text NOT NULL,
  key text NOT NULL,
  at bigint NOT NULL,
  expires_at bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX rate_limit_hits_key_idx ON rate_limit_hits (name, key, at);
--> statement-breakpoint
CREATE INDEX rate_limit_hits_expiry_idx ON rate_limit_hits (expires_at);
--> statement-breakpoint
CREATE TABLE spent_challenges (
  id text PRIMARY KEY,
  expires_at bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX spent_challenges_expiry_idx ON spent_challenges (expires_at);

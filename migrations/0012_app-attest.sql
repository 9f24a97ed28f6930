CREATE TABLE `app_attest_challenges` (
	`challenge` text PRIMARY KEY NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `app_attest_challenges_expires_idx` ON `app_attest_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `app_attest_keys` (
	`key_id` text PRIMARY KEY NOT NULL,
	`app_id` text NOT NULL,
	`public_key` text NOT NULL,
	`receipt` text NOT NULL,
	`environment` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`last_used_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);

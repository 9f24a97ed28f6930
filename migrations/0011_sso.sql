CREATE TABLE `sso_flows` (
	`state` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`verifier_sealed` text NOT NULL,
	`nonce` text NOT NULL,
	`client` text NOT NULL,
	`browser_hash` text,
	`native_challenge` text,
	`next` text,
	`user_id` text,
	`code_hash` text,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_flows_code_unique` ON `sso_flows` (`code_hash`);--> statement-breakpoint
CREATE INDEX `sso_flows_expires_idx` ON `sso_flows` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sso_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text,
	`last_used_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_identities_subject_unique` ON `sso_identities` (`provider`,`subject`);--> statement-breakpoint
CREATE INDEX `sso_identities_user_idx` ON `sso_identities` (`user_id`);